import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { useErrorText } from '../../../hooks/use-error-text';
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
  const intl = useIntl();
  const errorText = useErrorText();
  const { data, error } = useSuggestions();
  if (error) return <Banner tone="error">{errorText(error)}</Banner>;
  if (!data || data.people.length === 0) return null;
  return (
    <section className="suggestions" aria-labelledby="suggestions-title">
      <h2 id="suggestions-title" className="suggestions__title">
        <FormattedMessage id="social.suggestions.title" />
      </h2>
      <PeopleList
        people={data.people}
        label={intl.formatMessage({ id: 'social.suggestions.label' })}
        onConnectedChange={onConnectedChange}
      />
    </section>
  );
}
