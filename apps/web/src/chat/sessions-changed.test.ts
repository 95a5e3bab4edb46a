import { describe, expect, test } from '@jest/globals';
import { notifySessionsChanged, onSessionsChanged } from './sessions-changed';

describe('the sessions-changed signal', () => {
  test('reaches every listener until it unsubscribes, even one that unsubscribes while being called', () => {
    const calls: string[] = [];
    const offA = onSessionsChanged(() => {
      calls.push('a');
      offA();
    });
    const offB = onSessionsChanged(() => calls.push('b'));
    notifySessionsChanged();
    notifySessionsChanged();
    offB();
    notifySessionsChanged();
    expect(calls).toEqual(['a', 'b', 'b']);
  });
});
