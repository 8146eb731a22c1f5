import { NavLink } from 'react-router';

export interface Tab {
  label: string;
  to: string;
}

/** Links between sibling lists, the current one marked. */
export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
