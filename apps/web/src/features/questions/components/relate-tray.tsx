import { FormattedMessage } from 'react-intl';
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
          <FormattedMessage
            id="questions.relate.selected"
            values={{ count: selection.length, size: RELATE_SELECTION_SIZE }}
          />
        </strong>{' '}
        <FormattedMessage id="questions.relate.pickAnother" />
      </p>
      <Button variant="ghost" size="small" onClick={clearRelateSelection}>
        <FormattedMessage id="questions.relate.clear" />
      </Button>
    </div>
  );
}
