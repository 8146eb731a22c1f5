import { useEffect } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { generalRules, numberedRules } from '../community-rules';
import './moderation.css';

/** One rule for each reason a report can give, under that reason's anchor. */
function NumberedRules() {
  const intl = useIntl();
  return (
    <section className="card rules-section" aria-labelledby="rules-numbered">
      <h2 id="rules-numbered">
        <FormattedMessage id="communityRules.numbered.heading" />
      </h2>
      <p className="muted">
        <FormattedMessage id="communityRules.numbered.intro" />
      </p>
      <ol className="rules-list">
        {numberedRules.map((rule) => (
          <li key={rule.reason} className="rule" id={rule.reason} tabIndex={-1}>
            <span className="rule__number" aria-hidden="true">
              <FormattedNumber value={rule.number} />
            </span>
            <h3 className="rule__title">
              <FormattedMessage
                id="communityRules.ruleHeading"
                values={{
                  number: rule.number,
                  title: intl.formatMessage({ id: rule.title }),
                  hidden: (chunks) => <span className="sr-only">{chunks}</span>,
                }}
              />
            </h3>
            <p className="rule__text">
              <FormattedMessage id={rule.text} />
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** What members expect of each other, beyond what a report names. */
function GeneralRules() {
  return (
    <section className="card rules-section" aria-labelledby="rules-general">
      <h2 id="rules-general">
        <FormattedMessage id="communityRules.general.heading" />
      </h2>
      <ul className="rules-list">
        {generalRules.map((rule) => (
          <li key={rule.title} className="rule rule--general">
            <h3 className="rule__title">
              <FormattedMessage id={rule.title} />
            </h3>
            <p className="rule__text">
              <FormattedMessage id={rule.text} />
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How a report is handled, and where to turn about a decision. */
function HowModerationWorks() {
  return (
    <section className="card rules-section prose" aria-labelledby="rules-moderation">
      <h2 id="rules-moderation">
        <FormattedMessage id="communityRules.moderation.heading" />
      </h2>
      <ul>
        <li>
          <FormattedMessage
            id="communityRules.moderation.report"
            values={{ strong: (chunks) => <strong>{chunks}</strong> }}
          />
        </li>
        <li>
          <FormattedMessage id="communityRules.moderation.hidden" />
        </li>
        <li>
          <FormattedMessage id="communityRules.moderation.actions" />
        </li>
        <li>
          <FormattedMessage
            id="communityRules.moderation.log"
            values={{ link: (chunks) => <Link to={paths.contact.getHref()}>{chunks}</Link> }}
          />
        </li>
      </ul>
    </section>
  );
}

/**
 * The community rules, one for each reason a report can give, each under the anchor that reason
 * points to (/rules#hate); then what members expect of each other, and how moderation works.
 */
export function CommunityRulesView() {
  const { hash } = useLocation();
  // The router renders after the browser looked for the anchor: look again once the rules are there.
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (!target) return;
    target.scrollIntoView({ block: 'start' });
    target.focus({ preventScroll: true });
  }, [hash]);

  return (
    <div className="page rules-page">
      <PageHeader
        title={<FormattedMessage id="communityRules.title" />}
        subtitle={<FormattedMessage id="communityRules.subtitle" />}
      />

      <NumberedRules />
      <GeneralRules />
      <HowModerationWorks />
    </div>
  );
}
