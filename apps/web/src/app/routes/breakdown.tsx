import { useIntl } from 'react-intl';
import { useParams } from 'react-router';
import { useGoBack } from '../../hooks/use-go-back';
import { BreakdownView } from '../../features/insights/components/breakdown-view';
import { useCountries } from '../../features/reference/api/get-countries';

export function Component() {
  const intl = useIntl();
  const { questionId = '' } = useParams();
  const { data: countries = [] } = useCountries();
  const goBack = useGoBack();
  return (
    <>
      <title>{intl.formatMessage({ id: 'insights.breakdown.pageTitle' })}</title>
      <BreakdownView questionId={questionId} countries={countries} onBack={goBack} />
    </>
  );
}
