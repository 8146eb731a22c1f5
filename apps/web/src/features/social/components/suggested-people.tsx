import { Banner } from '../../../components/ui/banner';
import { useSuggestions } from '../api/get-suggestions';
import { PeopleList, type ListedPerson } from './people-list';

interface SuggestedPeopleProps {
  /** Called once the viewer connected to or disconnected from someone suggested. */
  onConnectedChange?: (person: ListedPerson, connected: boolean) => void;
}

/**
 * People to follow, with the reason for each; nothing while they load or when there is nobody to
 * suggest. Someone connected to stays listed, marked Connected, until the list is shown again.
 */
export function SuggestedPeople({ onConnectedChange }: SuggestedPeopleProps) {
  const { data, error } = useSuggestions();
  if (error) return <Banner tone="error">{(error as Error).message}</Banner>;
  if (!data || data.people.length === 0) return null;
  return (
    <section className="suggestions" aria-labelledby="suggestions-title">
      <h2 id="suggestions-title" className="suggestions__title">
        People to follow
      </h2>
      <PeopleList people={data.people} label="Suggested people" onConnectedChange={onConnectedChange} />
    </section>
  );
}
