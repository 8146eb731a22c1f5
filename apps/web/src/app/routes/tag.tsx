import { useIntl } from 'react-intl';
import { useParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { useTagQuestions } from '../../features/questions/api/get-tag-questions';
import { QuestionList } from '../../features/questions/components/question-list';

export function Component() {
  const intl = useIntl();
  const { tag = '' } = useParams();
  const list = useTagQuestions(tag);
  return (
    <div className="page">
      <title>{`#${tag} · POLLSCOPE`}</title>
      <PageHeader title={intl.formatMessage({ id: 'tag.title' }, { tag })} />
      <QuestionList
        list={list}
        emptyMessage={intl.formatMessage({ id: 'tag.empty' })}
        label={intl.formatMessage({ id: 'tag.listLabel' }, { tag })}
      />
    </div>
  );
}
