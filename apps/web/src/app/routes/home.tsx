import { FormattedMessage, useIntl } from 'react-intl';
import { useCategories } from '../../features/reference/api/get-categories';
import { forgetFeed, useFeed } from '../../features/questions/api/get-feed';
import { CategoryBar } from '../../features/questions/components/category-bar';
import { QuestionCard } from '../../features/questions/components/question-card';
import { QuestionList } from '../../features/questions/components/question-list';
import { SuggestedPeople } from '../../features/social/components/suggested-people';

export function Component() {
  const intl = useIntl();
  const { data: categories = [] } = useCategories();
  const feed = useFeed();
  return (
    <div className="page">
      <title>POLLSCOPE</title>
      <h1 className="sr-only">
        <FormattedMessage id="home.heading" />
      </h1>
      <CategoryBar categories={categories} />
      {feed.qotd && (
        <QuestionCard
          question={feed.qotd}
          label={intl.formatMessage({ id: 'home.questionOfTheDay' })}
          onChange={(updated) => void feed.update(updated)}
          onPassedChange={() => void feed.reload()}
        />
      )}
      <QuestionList
        list={feed}
        emptyMessage={intl.formatMessage({ id: 'home.empty' })}
        label={intl.formatMessage({ id: 'home.listLabel' })}
        whenEmpty={<SuggestedPeople onConnectedChange={() => void forgetFeed()} />}
      />
    </div>
  );
}
