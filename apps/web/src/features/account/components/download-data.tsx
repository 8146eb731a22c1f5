import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
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
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setError(null);
    setPending(true);
    const result = await exportAccount();
    setPending(false);
    if (result instanceof ApiError) setError(result.message);
    else save(result);
  }

  return (
    <section className="card stack" aria-labelledby="your-data-title">
      <h2 id="your-data-title">Your data</h2>
      <p className="muted">
        A file with everything stored about you: your account and settings, the questions you asked with their results,
        your answers, likes, hidden questions, connections, blocks and notifications. It is JSON, readable by people and
        programs.
      </p>
      {error && <Banner tone="error">{error}</Banner>}
      <div className="form-actions">
        <Button pending={pending} onClick={() => void download()}>
          Download my data
        </Button>
      </div>
    </section>
  );
}
