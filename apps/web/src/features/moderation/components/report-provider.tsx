import { useCallback, useState, type ReactNode } from 'react';
import { ReportContext, type ReportSubject } from '../../../hooks/use-report';
import { ReportDialog } from './report-dialog';

interface OpenReport {
  subject: ReportSubject;
  returnFocus: HTMLElement | null;
}

/** Gives every screen below it a way to open the report dialog (useReport), and shows the one dialog. */
export function ReportProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<OpenReport | null>(null);
  const report = useCallback(
    (subject: ReportSubject, returnFocus: HTMLElement | null) => setOpen({ subject, returnFocus }),
    [],
  );
  return (
    <ReportContext value={report}>
      {children}
      {open && (
        <ReportDialog
          key={`${open.subject.target}-${open.subject.id}`}
          subject={open.subject}
          returnFocus={open.returnFocus}
          onClose={() => setOpen(null)}
        />
      )}
    </ReportContext>
  );
}
