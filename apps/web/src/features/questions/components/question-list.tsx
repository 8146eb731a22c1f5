import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Banner } from '../../../components/ui/banner';
import { EmptyState } from '../../../components/ui/empty-state';
import type { QuestionPages } from '../api/question-pages';
import { QuestionCard } from './question-card';
import { RelateTray } from './relate-tray';

interface QuestionListProps {
  list: QuestionPages;
  emptyMessage: string;
  label: string;
  /** Shown under the empty message, such as people to follow under an empty feed. */
  whenEmpty?: ReactNode;
}

function Skeletons() {
  return (
    <div className="stack" aria-busy="true" aria-label="Loading questions">
      <div className="skeleton" />
      <div className="skeleton" />
    </div>
  );
}

/** A page of question cards with "Load more"; hiding a question reloads the list. */
export function QuestionList({ list, emptyMessage, label, whenEmpty }: QuestionListProps) {
  if (list.isLoading) return <Skeletons />;
  if (list.error && list.questions.length === 0) return <Banner tone="error">{list.error.message}</Banner>;
  if (list.questions.length === 0)
    return (
      <>
        <EmptyState title={emptyMessage} />
        {whenEmpty}
      </>
    );
  return (
    <section className="stack" aria-label={label}>
      <RelateTray />
      {list.questions.map((question) => (
        <QuestionCard key={question.id} question={question} onChange={(updated) => void list.update(updated)} onPassedChange={() => void list.reload()} />
      ))}
      {list.hasMore && (
        <Button className="load-more" block pending={list.isLoadingMore} onClick={() => void list.loadMore()}>
          Load more
        </Button>
      )}
    </section>
  );
}
