import { useEffect, useRef, useState } from 'react';
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
import { useRouteHandle, type SearchHandle } from '../route-handle';

/** How long typing pauses before the results follow it. */
const TYPING_PAUSE_MS = 300;

function QuestionResults({ query }: { query: string }) {
  const list = useSearchQuestions(query);
  return <QuestionList list={list} emptyMessage={`No question matches “${query}”.`} label="Questions found" />;
}

function PeopleResults({ query }: { query: string }) {
  const { data, error } = usePeople(query);
  if (error) return <Banner tone="error">{(error as Error).message}</Banner>;
  if (!data) return <Loading />;
  if (data.people.length === 0) return <EmptyState title={`Nobody’s first name starts with “${query}”.`} />;
  return <PeopleList people={data.people} label="People found" onConnectedChange={() => void forgetFeed()} />;
}

/**
 * Questions by their words, and people by first name, as tabs; the words are in the address (`?q=`), so a search can be
 * shared.
 */
export function Component() {
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
      <title>{query ? `${query} · Search · POLLSCOPE` : 'Search · POLLSCOPE'}</title>
      <PageHeader title="Search" />
      <SearchField
        className="search-page__field"
        placeholder="Words of a question, or a first name"
        value={typed}
        onChange={setTyped}
        onSubmit={search}
        autoFocus={query === ''}
      />
      <Tabs
        label="Search results"
        tabs={[
          { label: 'Questions', to: paths.search.getHref(query) },
          { label: 'People', to: paths.searchPeople.getHref(query) },
        ]}
      />
      {query === '' ? (
        <p className="muted">
          Find questions by the words of their title, choices or tag, and people by their first name.
        </p>
      ) : tab === 'questions' ? (
        <QuestionResults query={query} />
      ) : (
        <PeopleResults query={query} />
      )}
    </div>
  );
}
