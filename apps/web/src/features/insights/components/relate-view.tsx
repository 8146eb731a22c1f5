import { displayId } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ArrowLeftIcon, SwapIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/loading';
import { useErrorText } from '../../../hooks/use-error-text';
import { useChoiceLabel } from '../../../lib/question-shape';
import { useRelatePair } from '../api/get-relate';
import { useRelateFilter } from '../hooks/use-relate-filter';
import { AssociationSummary } from './association-summary';
import { RelateFirstQuestion, RelateSecondQuestion, RelateSideBySide } from './relate-sections';
import './insights.css';

interface RelateViewProps {
  firstId: string;
  secondId: string;
  onSwap: () => void;
  onBack: () => void;
}

export function RelateView({ firstId, secondId, onSwap, onBack }: RelateViewProps) {
  const intl = useIntl();
  const errorText = useErrorText();
  const choiceLabel = useChoiceLabel();
  const { data, error } = useRelatePair(firstId, secondId);
  const filter = useRelateFilter(data);

  const actions = (
    <>
      <Button onClick={onSwap}>
        <SwapIcon />
        <FormattedMessage id="insights.relate.change" />
      </Button>
      <Button variant="ghost" onClick={onBack}>
        <ArrowLeftIcon className="insights-directional-icon" />
        <FormattedMessage id="insights.back" />
      </Button>
    </>
  );
  const titleOf = (first: number, second: number) =>
    intl.formatMessage(
      { id: 'insights.relate.title' },
      { first: displayId('QID', first), second: displayId('QID', second) },
    );

  if (error) {
    return (
      <div className="page">
        <PageHeader title={titleOf(Number(firstId), Number(secondId))} actions={actions} />
        <Banner tone="error">{errorText(error)}</Banner>
      </div>
    );
  }
  if (!data) return <Loading />;

  const { first, second } = data;
  const { filtered, choice } = filter;
  const association = filtered?.association ?? data.association;
  const unreleased = (filtered ?? data).privacy === null;
  const choiceText = choice === null ? '' : choiceLabel(second, choice);

  return (
    <div className="page">
      <PageHeader
        title={titleOf(first.qid, second.qid)}
        subtitle={<FormattedMessage id="insights.relate.subtitle" />}
        actions={actions}
      />
      <RelateFirstQuestion first={first} filter={filter} choiceText={choiceText} />
      <RelateSecondQuestion second={second} filter={filter} unreleased={unreleased} />
      {data.choices.length > 0 && <RelateSideBySide data={data} choice={choice} />}
      {association && <AssociationSummary association={association} />}
    </div>
  );
}
