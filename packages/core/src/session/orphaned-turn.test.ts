import type { OpenTurn } from './session-state';
import { CUT_OFF_RETRY_HINT, judgeOpenTurn } from './orphaned-turn';

const turn = (host?: OpenTurn['host'], lastEventAt = '2026-01-01T10:00:00.000Z'): OpenTurn => ({
  turnId: 't1',
  startedAt: '2026-01-01T09:59:00.000Z',
  lastEventAt,
  rounds: 1,
  ...(host ? { host } : {}),
});
const me = { host: { replicaId: 'a', processId: 'p2' }, now: new Date('2026-01-01T10:05:00.000Z'), silenceLimitMs: 10 * 60_000 };

describe('judgeOpenTurn (a turn not running in the asking process)', () => {
  it('is cut off when this replica ran it: an earlier process, or this one after it stopped without its end', () => {
    expect(judgeOpenTurn(turn({ replicaId: 'a', processId: 'p1' }), me)).toMatchObject({ orphaned: true, detail: expect.stringContaining('restarted') });
    expect(judgeOpenTurn(turn({ replicaId: 'a', processId: 'p2' }), me)).toMatchObject({ orphaned: true, detail: expect.stringContaining('without recording its end') });
  });

  it('is cut off when no host was recorded (only one server wrote streams then)', () => {
    expect(judgeOpenTurn(turn(), me).orphaned).toBe(true);
  });

  it('is left to another replica while that replica may still run it, and cut off once it has been silent for the limit', () => {
    const other = { replicaId: 'b', processId: 'q1' };
    expect(judgeOpenTurn(turn(other), me)).toEqual({ orphaned: false, detail: "The turn is still running on replica 'b'." });
    expect(judgeOpenTurn(turn(other, '2026-01-01T09:55:00.000Z'), me)).toMatchObject({ orphaned: true, detail: expect.stringContaining("replica 'b'") });
    expect(judgeOpenTurn(turn(other, '2026-01-01T09:55:00.001Z'), me).orphaned).toBe(false);
  });

  it('points a cut-off turn to Retry (RetryTurn), not to sending the message again (which would record it twice)', () => {
    const verdicts = [turn(), turn({ replicaId: 'a', processId: 'p1' }), turn({ replicaId: 'b', processId: 'q1' }, '2026-01-01T09:00:00.000Z')].map((t) => judgeOpenTurn(t, me));
    for (const verdict of verdicts) {
      expect(verdict.orphaned).toBe(true);
      expect(verdict.detail).toMatch(/ Press Retry to run it again\.$/);
      expect(verdict.detail.endsWith(CUT_OFF_RETRY_HINT)).toBe(true);
      expect(verdict.detail).not.toContain('Send the message again');
    }
  });
});
