// Remote agents: registered by name, seen at each check-in.

export interface AgentRow {
  id: string;
  name: string;
  userId: string;
  /** What the agent said it is (its program version). */
  version: string;
  /** The address its last check-in came from. */
  address: string;
  created: number;
  lastSeen: number;
}

export type NewAgent = Omit<AgentRow, 'id'>;

export interface AgentsStore {
  /** Every agent (a handful per installation, not devices). */
  all(): Promise<AgentRow[]>;
  /** Stores a new agent; undefined when the name is taken. */
  create(row: NewAgent): Promise<AgentRow | undefined>;
  /** Records a check-in. */
  seen(id: string, lastSeen: number, address: string, version: string): Promise<void>;
  delete(id: string): Promise<boolean>;
}
