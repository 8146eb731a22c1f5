import type { Association } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { useFormat } from '../../../i18n/format';
import './insights.css';

/** The smallest p-value written out; a smaller one is "p < 0.001". */
const SMALLEST_P = 0.001;

/** Whether two questions' answers go together, said in words first and in figures after. */
export function AssociationSummary({ association }: { association: Association }) {
  const intl = useIntl();
  const format = useFormat();
  const small = association.p_value < SMALLEST_P;
  return (
    <section
      className={association.significant ? 'association association--significant' : 'association'}
      aria-label={intl.formatMessage({ id: 'insights.association.label' })}
    >
      <p className="association__headline">
        <FormattedMessage
          id="insights.association.significance"
          values={{ significant: association.significant ? 'yes' : 'no', level: format.percent(95) }}
        />
        <span className="association__strength">
          <FormattedMessage id="insights.association.strength" values={{ strength: association.strength }} />
        </span>
      </p>
      <p>{association.summary}</p>
      <p className="association__figures muted">
        <FormattedMessage
          id="insights.association.figures"
          values={{
            v: format.average(association.cramers_v),
            small: small ? 'yes' : 'no',
            p: intl.formatNumber(small ? SMALLEST_P : association.p_value, {
              minimumFractionDigits: 3,
              maximumFractionDigits: 3,
            }),
            count: association.n,
          }}
        />
      </p>
    </section>
  );
}
