import { describe, expect, it } from 'vitest';
import { csvCell } from '../../../services/console/audit-csv.js';
import { readCookie, sessionCookie } from './cookies.js';
import { toFaceFeedback } from './engine-capabilities.js';
import { hostnameOf, isOwnHost } from './guard.js';
import { toOutcome } from './step-outcome.js';

describe('Host check (DNS rebinding)', () => {
  it('accepts loopback names and the address the connection arrived on', () => {
    expect(isOwnHost('127.0.0.1:8787', '127.0.0.1')).toBe(true);
    expect(isOwnHost('localhost:8787', '127.0.0.1')).toBe(true);
    expect(isOwnHost('[::1]:8787', '::1')).toBe(true);
    expect(isOwnHost('192.168.1.20:8787', '::ffff:192.168.1.20')).toBe(true);
    expect(isOwnHost('idv-branch:8787', '192.168.1.20', 'idv-branch')).toBe(true);
  });

  it('refuses other names, even when they resolve to this machine', () => {
    expect(isOwnHost('attacker.example:8787', '127.0.0.1')).toBe(false);
    expect(isOwnHost('192.168.1.21:8787', '192.168.1.20')).toBe(false);
    expect(isOwnHost(undefined, '127.0.0.1')).toBe(false);
    expect(isOwnHost('evil:8787', '0.0.0.0', '0.0.0.0')).toBe(false);
    expect(hostnameOf('[::1]:80')).toBe('[::1]');
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Strict, site-wide and reads back', () => {
    const header = sessionCookie('s', 'a b', new Date(0), false);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/');
    expect(header).not.toContain('Secure');
    expect(readCookie('x=1; s=a%20b', 's')).toBe('a b');
    expect(readCookie('x=1', 's')).toBeUndefined();
  });
});

describe('CSV cells', () => {
  it('quotes separators and defuses spreadsheet formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(null)).toBe('');
  });
});

describe('step outcome', () => {
  it('names the threshold by its calibrated 1-in-N and the score by its rarity', () => {
    const outcome = toOutcome(
      'face_match',
      { status: 'SUCCESS', score: 0.9, message: 'ok', extra: { threshold: 0.3371, estimated_fmr: 1e-5 } },
      [
        { oneInN: 1000, threshold: 0.33712 },
        { oneInN: 10000, threshold: 0.4 },
      ],
    );
    expect(outcome).toMatchObject({ thresholdOneInN: 1000, scoreOneInN: 100000, threshold: 0.3371 });
  });
});

describe('face quality feedback', () => {
  it('puts the most blocking problem first, in plain words', () => {
    const none = toFaceFeedback({ passed: false, reasons: ['no_face'], face: null, faceCount: 0 });
    expect(none).toMatchObject({ faceFound: false, message: 'No face found: look straight at the camera.' });
    const good = toFaceFeedback({
      passed: true,
      reasons: [],
      face: { x: 1, y: 2, width: 3, height: 4 },
      faceCount: 1,
    });
    expect(good).toMatchObject({ faceFound: true, issues: [], message: 'Face found: good to capture.' });
  });
});
