import { useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths';

/** Back to the previous screen, or home when this screen was opened directly. */
export function useGoBack() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key === 'default') void navigate(paths.home.getHref());
    else void navigate(-1);
  };
}
