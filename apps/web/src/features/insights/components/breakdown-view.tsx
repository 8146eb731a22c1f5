import { displayId, type Country, type Question } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { QuestionResult } from '../../../components/results/question-result';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/loading';
import { questionTypeLabels } from '../../../lib/question-shape';
import { useBreakdown } from '../api/get-breakdown';
import { useBreakdownFilter } from '../hooks/use-breakdown-filter';
import { BreakdownFilterForm } from './breakdown-filter-form';
import { BreakdownFilteredResult } from './breakdown-filtered-result';
import { BreakdownSplits } from './breakdown-splits';
import './insights.css';

function QuestionSummary({ question }: { question: Question }) {
  const intl = useIntl();
  return (
    <section className="card stack" aria-labelledby="insight-question">
      <div className="stack insight-question">
        <p className="eyebrow">
          <FormattedMessage
            id="insights.question.meta"
            values={{
              type: intl.formatMessage({ id: questionTypeLabels[question.type] }),
              voted: question.result ? 'yes' : 'no',
              count: question.result?.count ?? 0,
            }}
          />
        </p>
        <h2 id="insight-question">{question.title}</h2>
      </div>
      {question.result && (
        <QuestionResult question={question} result={question.result} myChoice={question.answer?.choice ?? null} />
      )}
    </section>
  );
}

interface BreakdownViewProps {
  questionId: string;
  countries: Country[];
  onBack: () => void;
}

export function BreakdownView({ questionId, countries, onBack }: BreakdownViewProps) {
  const { data, error } = useBreakdown(questionId);
  const filter = useBreakdownFilter(data);

  const backButton = (
    <Button variant="secondary" onClick={onBack}>
      <ArrowLeftIcon className="insights-directional-icon" />
      <FormattedMessage id="insights.back" />
    </Button>
  );

  if (error) {
    return (
      <div className="page">
        <PageHeader title={<FormattedMessage id="insights.breakdown.title" />} actions={backButton} />
        <Banner tone="error">
          <FormattedMessage id="insights.breakdown.error" />
        </Banner>
      </div>
    );
  }
  if (!data) return <Loading />;

  return (
    <div className="page">
      <PageHeader
        eyebrow={<span className="mono">{displayId('QID', data.question.qid)}</span>}
        title={<FormattedMessage id="insights.breakdown.title" />}
        subtitle={<FormattedMessage id="insights.breakdown.subtitle" />}
        actions={backButton}
      />
      <QuestionSummary question={data.question} />
      <div className="breakdown-layout">
        <BreakdownFilterForm
          key={filter.formVersion}
          filters={data.filters}
          countries={countries}
          initial={filter.picked ?? {}}
          pending={filter.pending}
          onFilter={filter.submitForm}
        />
        <BreakdownSplits
          question={data.question}
          splits={data.splits}
          countries={countries}
          current={filter.picked}
          onSelect={filter.pickGroup}
        />
      </div>
      {filter.filterError && (
        <Banner tone="error">
          <FormattedMessage id="insights.breakdown.error" />
        </Banner>
      )}
      {filter.filtered && (
        <BreakdownFilteredResult ref={filter.resultRef} question={data.question} filtered={filter.filtered} />
      )}
    </div>
  );
}
