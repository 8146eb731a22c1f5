import { useCategories } from '../../features/reference/api/get-categories';
import { forgetFeed, useFeed } from '../../features/questions/api/get-feed';
import { CategoryBar } from '../../features/questions/components/category-bar';
import { QuestionCard } from '../../features/questions/components/question-card';
import { QuestionList } from '../../features/questions/components/question-list';
import { SuggestedPeople } from '../../features/social/components/suggested-people';

export function Component() {
  const { data: categories = [] } = useCategories();
  const feed = useFeed();
  return (
    <div className="page">
      <title>POLLSCOPE</title>
      <h1 className="sr-only">Your feed</h1>
      <CategoryBar categories={categories} />
      {feed.qotd && (
        <QuestionCard
          question={feed.qotd}
          label="Question of the day"
          onChange={(updated) => void feed.update(updated)}
          onPassedChange={() => void feed.reload()}
        />
      )}
      <QuestionList
        list={feed}
        emptyMessage="No question exist from your connections!"
        label="Questions from your connections"
        whenEmpty={<SuggestedPeople onConnectedChange={() => void forgetFeed()} />}
      />
    </div>
  );
}
