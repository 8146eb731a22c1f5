import { useParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { useTagQuestions } from '../../features/questions/api/get-tag-questions';
import { QuestionList } from '../../features/questions/components/question-list';

export function Component() {
  const { tag = '' } = useParams();
  const list = useTagQuestions(tag);
  return (
    <div className="page">
      <title>{`#${tag} · POLLSCOPE`}</title>
      <PageHeader title={`Tag #${tag}`} />
      <QuestionList list={list} emptyMessage="No question in this tag!" label={`Questions tagged ${tag}`} />
    </div>
  );
}
