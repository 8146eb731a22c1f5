import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { generalRules, numberedRules } from '../community-rules';
import './moderation.css';

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
        title="Community rules"
        subtitle="POLLSCOPE works when everyone can ask and answer in good faith. These rules keep it that way."
      />

      <section className="card rules-section" aria-labelledby="rules-numbered">
        <h2 id="rules-numbered">The rules</h2>
        <p className="muted">Each rule is a reason you can give when you report a question or a person.</p>
        <ol className="rules-list">
          {numberedRules.map((rule) => (
            <li key={rule.reason} className="rule" id={rule.reason} tabIndex={-1}>
              <span className="rule__number" aria-hidden="true">
                {rule.number}
              </span>
              <h3 className="rule__title">
                <span className="sr-only">Rule {rule.number}: </span>
                {rule.title}
              </h3>
              <p className="rule__text">{rule.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="card rules-section" aria-labelledby="rules-general">
        <h2 id="rules-general">What members expect of each other</h2>
        <ul className="rules-list">
          {generalRules.map((rule) => (
            <li key={rule.title} className="rule rule--general">
              <h3 className="rule__title">{rule.title}</h3>
              <p className="rule__text">{rule.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="card rules-section prose" aria-labelledby="rules-moderation">
        <h2 id="rules-moderation">How moderation works</h2>
        <ul>
          <li>
            Anything that breaks a rule can be reported from the <strong>⋯</strong> menu of a question or the{' '}
            <strong>Report</strong> button of a profile. Reports are anonymous: nobody, moderators included, learns who
            sent one.
          </li>
          <li>
            A question reported by several people is hidden from everyone but its author until a moderator has looked at
            it.
          </li>
          <li>
            Moderators can remove a question, warn its author, or suspend someone for a while or for good. Whoever is
            concerned is told what was done and why, in their notifications and by email.
          </li>
          <li>
            Every action is kept in a log. If you think a moderator got it wrong,{' '}
            <Link to={paths.contact.getHref()}>write to us</Link>.
          </li>
        </ul>
      </section>
    </div>
  );
}
