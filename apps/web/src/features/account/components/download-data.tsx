import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { exportAccount } from '../api/export-account';

/** Saves the file the browser got, under the name the server gave it. */
function save({ blob, filename }: { blob: Blob; filename: string }): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** "Download my data": everything stored about the person, as a JSON file. */
export function DownloadData() {
  const errorText = useErrorText();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setError(null);
    setPending(true);
    const result = await exportAccount();
    setPending(false);
    if (result instanceof ApiError) setError(errorText(result));
    else save(result);
  }

  return (
    <section className="card stack" aria-labelledby="your-data-title">
      <h2 id="your-data-title">
        <FormattedMessage id="account.data.title" />
      </h2>
      <p className="muted">
        <FormattedMessage id="account.data.explanation" />
      </p>
      {error && <Banner tone="error">{error}</Banner>}
      <div className="form-actions">
        <Button pending={pending} onClick={() => void download()}>
          <FormattedMessage id="account.data.download" />
        </Button>
      </div>
    </section>
  );
}
