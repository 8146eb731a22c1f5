import { useIntl } from 'react-intl';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { RelateView } from '../../features/insights/components/relate-view';
import { clearRelateSelection } from '../../features/questions/relate-selection';

export function Component() {
  const intl = useIntl();
  const { firstId = '', secondId = '' } = useParams();
  const navigate = useNavigate();
  // The pair is open now: picking starts afresh next time.
  useEffect(clearRelateSelection, []);
  return (
    <>
      <title>{intl.formatMessage({ id: 'insights.relate.pageTitle' })}</title>
      <RelateView
        key={`${firstId}/${secondId}`}
        firstId={firstId}
        secondId={secondId}
        onSwap={() => void navigate(paths.relate.getHref(secondId, firstId))}
        onBack={() => void navigate(paths.home.getHref())}
      />
    </>
  );
}
