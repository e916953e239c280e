/**
 * The transport the user chose for live video: kept in localStorage (every player of this browser
 * follows it) and overridable per page by `?transport=` (links to /players/ pages that must play one
 * way). 'auto' lets the player pick and fall back.
 */
import { useCallback, useEffect, useState } from 'react';
import { isTransportChoice, type TransportChoice } from './transport';

export const TRANSPORT_STORAGE_KEY = 'player_transport';
const EVENT = 'opencvr:player-transport';

export function storedTransport(): TransportChoice {
  try {
    const v = localStorage.getItem(TRANSPORT_STORAGE_KEY);
    return isTransportChoice(v) ? v : 'auto';
  } catch {
    return 'auto';
  }
}

/** The choice in force: the page's `?transport=` when valid, else the stored one. */
export function transportFrom(search: string, stored: TransportChoice): TransportChoice {
  const q = new URLSearchParams(search).get('transport');
  return isTransportChoice(q) ? q : stored;
}

/** The stored choice, shared by every player on the page, and a setter that stores it. */
export function useStoredTransport(): [TransportChoice, (c: TransportChoice) => void] {
  const [choice, setChoice] = useState<TransportChoice>(storedTransport);
  useEffect(() => {
    const on = () => setChoice(storedTransport());
    window.addEventListener(EVENT, on);
    window.addEventListener('storage', on);
    return () => {
      window.removeEventListener(EVENT, on);
      window.removeEventListener('storage', on);
    };
  }, []);
  const set = useCallback((c: TransportChoice) => {
    try {
      if (c === 'auto') localStorage.removeItem(TRANSPORT_STORAGE_KEY);
      else localStorage.setItem(TRANSPORT_STORAGE_KEY, c);
    } catch {
      /* private mode: this page only */
    }
    setChoice(c);
    window.dispatchEvent(new Event(EVENT));
  }, []);
  return [choice, set];
}
