import { AppLayout } from '../components/layout/app-layout';
import { AppProvider } from './provider';

/** The frame of every screen, with the data cache; loaded beside the first screen rather than before it. */
export function Root() {
  return (
    <AppProvider>
      <AppLayout />
    </AppProvider>
  );
}
