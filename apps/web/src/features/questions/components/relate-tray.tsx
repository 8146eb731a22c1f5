import { Button } from '../../../components/ui/button';
import { RelateIcon } from '../../../components/ui/icons';
import { clearRelateSelection, RELATE_SELECTION_SIZE, useRelateSelection } from '../relate-selection';

/** Tells the viewer a question waits for its partner in relate. */
export function RelateTray() {
  const selection = useRelateSelection();
  if (selection.length === 0) return null;
  return (
    <div className="relate-tray" role="status">
      <RelateIcon />
      <p>
        <strong>
          {selection.length} of {RELATE_SELECTION_SIZE} selected.
        </strong>{' '}
        Pick another multiple-choice question you answered to relate them.
      </p>
      <Button variant="ghost" size="small" onClick={clearRelateSelection}>
        Clear
      </Button>
    </div>
  );
}
