// TODO(issue 4): the store of trigger runs.
export interface TriggerRunsStore {}
