import type { Mock, SocketMock } from '../../types.js';

/**
 * A test's own socket mock, as the store keeps it: in the same list as its own mocks (one add,
 * one bound, one reset for both), marked by its single key.
 */
export interface OwnSocketEntry {
  socket: SocketMock;
}

export function isOwnSocketEntry(entry: unknown): entry is OwnSocketEntry {
  return typeof entry === 'object' && entry !== null && Object.hasOwn(entry, 'socket') && !Object.hasOwn(entry, 'url');
}

/** The HTTP mocks of a stored list, each with its place in the whole list. */
export function httpMocksOf(list: readonly unknown[]): { mock: Mock; index: number }[] {
  return list.flatMap((entry, index) => (isOwnSocketEntry(entry) ? [] : [{ mock: entry as Mock, index }]));
}

/** The socket mocks of a stored list, oldest first. */
export function ownSocketsOf(list: readonly unknown[]): SocketMock[] {
  return list.flatMap((entry) => (isOwnSocketEntry(entry) ? [entry.socket] : []));
}
