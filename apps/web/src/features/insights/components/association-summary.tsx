import type { Association } from '@pollscope/contract';
import './insights.css';

function formatP(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

/** Whether two questions' answers go together, said in words first and in figures after. */
export function AssociationSummary({ association }: { association: Association }) {
  return (
    <section
      className={association.significant ? 'association association--significant' : 'association'}
      aria-label="How the two questions relate"
    >
      <p className="association__headline">
        {association.significant ? 'Significant at the 95% level' : 'Not significant at the 95% level'}
        <span className="association__strength">{association.strength} link</span>
      </p>
      <p>{association.summary}</p>
      <p className="association__figures muted">
        Cramér's V {association.cramers_v.toFixed(2)} · {formatP(association.p_value)} · about{' '}
        {association.n.toLocaleString('en')} people answered both · tested allowing for the privacy noise
      </p>
    </section>
  );
}
