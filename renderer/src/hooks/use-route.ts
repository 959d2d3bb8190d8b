import { useCallback, useEffect, useState } from 'react';

/** The console's screens, each with its own path (the server answers index.html for each). */
export type ScreenPath = '/enroll' | '/verify' | '/keys' | '/audit' | '/settings' | '/users';

/** Current path and a navigate function over the History API. */
export function useRoute(): [string, (path: ScreenPath) => void] {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const onPop = (): void => {
      setPath(window.location.pathname);
    };
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
    };
  }, []);
  const navigate = useCallback((next: ScreenPath) => {
    window.history.pushState(null, '', next);
    setPath(next);
  }, []);
  return [path, navigate];
}
