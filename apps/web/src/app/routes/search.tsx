import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { EmptyState } from '../../components/ui/empty-state';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { SearchField } from '../../components/ui/search-field';
import { Tabs } from '../../components/ui/tabs';
import { paths } from '../../config/paths';
import { forgetFeed } from '../../features/questions/api/get-feed';
import { useSearchQuestions } from '../../features/questions/api/search-questions';
import { QuestionList } from '../../features/questions/components/question-list';
import { usePeople } from '../../features/social/api/find-people';
import { PeopleList } from '../../features/social/components/people-list';
import { useErrorText } from '../../hooks/use-error-text';
import { useRouteHandle, type SearchHandle } from '../route-handle';

/** How long typing pauses before the results follow it. */
const TYPING_PAUSE_MS = 300;

function QuestionResults({ query }: { query: string }) {
  const intl = useIntl();
  const list = useSearchQuestions(query);
  return (
    <QuestionList
      list={list}
      emptyMessage={intl.formatMessage({ id: 'search.noQuestions' }, { query })}
      label={intl.formatMessage({ id: 'search.questionsFound' })}
    />
  );
}

function PeopleResults({ query }: { query: string }) {
  const intl = useIntl();
  const errorText = useErrorText();
  const { data, error } = usePeople(query);
  if (error) return <Banner tone="error">{errorText(error)}</Banner>;
  if (!data) return <Loading />;
  if (data.people.length === 0) return <EmptyState title={intl.formatMessage({ id: 'search.noPeople' }, { query })} />;
  return (
    <PeopleList
      people={data.people}
      label={intl.formatMessage({ id: 'search.peopleFound' })}
      onConnectedChange={() => void forgetFeed()}
    />
  );
}

/**
 * Questions by their words, and people by first name, as tabs; the words are in the address (`?q=`), so a search can be
 * shared.
 */
export function Component() {
  const intl = useIntl();
  const { tab } = useRouteHandle<SearchHandle>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = (params.get('q') ?? '').trim();
  const [typed, setTyped] = useState(query);
  /**
   * The words last put in the address from the field: an address with other words came from elsewhere (history, the
   * header).
   */
  const sent = useRef(query);
  const search = (words: string) => {
    sent.current = words.trim();
    void navigate((tab === 'people' ? paths.searchPeople : paths.search).getHref(words.trim()), { replace: true });
  };

  useEffect(() => {
    if (query === sent.current) return;
    sent.current = query;
    setTyped(query);
  }, [query]);
  // The address, and the results, follow the typing once it pauses.
  useEffect(() => {
    if (typed.trim() === query) return undefined;
    const timer = setTimeout(() => search(typed), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  });

  return (
    <div className="page">
      <title>
        {query
          ? intl.formatMessage({ id: 'search.pageTitleWithQuery' }, { query })
          : intl.formatMessage({ id: 'search.pageTitle' })}
      </title>
      <PageHeader title={intl.formatMessage({ id: 'search.title' })} />
      <SearchField
        className="search-page__field"
        placeholder={intl.formatMessage({ id: 'search.placeholder' })}
        value={typed}
        onChange={setTyped}
        onSubmit={search}
        autoFocus={query === ''}
      />
      <Tabs
        label={intl.formatMessage({ id: 'search.results' })}
        tabs={[
          { label: intl.formatMessage({ id: 'search.questionsTab' }), to: paths.search.getHref(query) },
          { label: intl.formatMessage({ id: 'search.peopleTab' }), to: paths.searchPeople.getHref(query) },
        ]}
      />
      {query === '' ? (
        <p className="muted">
          <FormattedMessage id="search.hint" />
        </p>
      ) : tab === 'questions' ? (
        <QuestionResults query={query} />
      ) : (
        <PeopleResults query={query} />
      )}
    </div>
  );
}
