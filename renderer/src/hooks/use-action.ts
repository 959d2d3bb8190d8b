import { useCallback, useState } from 'react';
import { errorMessage } from '../api/client';

/** An error message and `act(work)`: clears the message, runs the work, and shows why it failed if it did. */
export function useAction(): {
  error: string;
  setError: (message: string) => void;
  act: (work: () => Promise<unknown>) => Promise<void>;
} {
  const [error, setError] = useState('');
  const act = useCallback(async (work: () => Promise<unknown>): Promise<void> => {
    setError('');
    try {
      await work();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }, []);
  return { error, setError, act };
}
