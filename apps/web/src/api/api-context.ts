import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from './client';

export const ApiContext = createContext<ApiClient | undefined>(undefined);

/** The signed-in API client; only rendered below the sign-in gate, so it is always there. */
export function useApi(): ApiClient {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi() used outside <ApiContext.Provider>');
  return api;
}
