// Overview: last data, the manual state, and the state history.
import { LastData } from './last-data';
import { ManualState } from './manual-state';
import { StateHistory } from './state-history';

export function OverviewTab({ id, statTick, stateTick, onStateChanged }: { id: string; statTick: number; stateTick: number; onStateChanged: () => void }) {
  return (
    <div className="obj-overview">
      <LastData id={id} tick={statTick} />
      <div>
        <ManualState id={id} tick={stateTick} onChanged={onStateChanged} />
        <StateHistory id={id} tick={stateTick} />
      </div>
    </div>
  );
}
