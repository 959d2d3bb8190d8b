/**
 * Seeded, varied holder and document data for rendered travel documents (benchmarks and tests): names of
 * several lengths and scripts' transliterations, document numbers of the usual shapes, real ICAO state codes,
 * birth and expiry dates. Same seed, same documents. Pure code.
 */
import type { TravelDocument, TravelFormat } from './mrz-text.js';

/** A deterministic pseudo-random source in [0, 1) (mulberry32). */
export type Random = () => number;

/** mulberry32: small, fast and good enough for test data; the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniformly chosen element. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length) % items.length]!;
}

/** A uniform number in [low, high). */
export function between(random: Random, low: number, high: number): number {
  return low + (high - low) * random();
}

const SURNAMES = [
  'ERIKSSON',
  'MUSTERMANN',
  'NOVAK',
  'OKONKWO',
  'GARCIA LOPEZ',
  'NGUYEN',
  'KOWALCZYK',
  'DE LA CRUZ',
  'WOJCIECHOWSKA-PIOTROWSKA',
  'LI',
  'OYELARAN-ADEBAYO',
  'SCHWARZENEGGER',
  'DUBOIS',
  'PAPADOPOULOU',
  'VAN DER BERG',
  'KIM',
  'ABDULRAHMAN AL HASHIMI',
  'SILVA',
  'TANAKA',
  "O'NEILL",
  'HERNANDEZ',
  'JOHANSSON',
  'MBEKI',
  'OZ',
];

const GIVEN_NAMES = [
  'ANNA MARIA',
  'JOHN',
  'MOHAMMED',
  'XIAO MING',
  'JEAN-PIERRE',
  'OLGA',
  'MARIA DEL CARMEN',
  'YUSUF',
  'AIKO',
  'PETER PAUL JOHANNES',
  'ZOE',
  'CHUKWUEMEKA',
  'EVA',
  'ALEKSANDR',
  'SIOBHAN',
  'LUCAS',
  'FATIMA ZAHRA',
  'KWAME',
];

/** ICAO codes of real states and of the specimen state, as they appear in issued documents. */
const STATES = [
  'UTO',
  'D',
  'FRA',
  'GBR',
  'USA',
  'CAN',
  'AUS',
  'NLD',
  'ESP',
  'ITA',
  'POL',
  'CZE',
  'HUN',
  'ROU',
  'SWE',
  'NOR',
  'FIN',
  'CHE',
  'AUT',
  'BEL',
  'PRT',
  'IRL',
  'GRC',
  'TUR',
  'IND',
  'CHN',
  'JPN',
  'KOR',
  'BRA',
  'MEX',
  'ARG',
  'ZAF',
  'NGA',
  'KEN',
  'EGY',
  'MAR',
  'UKR',
  'LTU',
  'HRV',
  'NZL',
  'SGP',
  'PHL',
];

const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function chars(random: Random, alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet.charAt(Math.floor(random() * alphabet.length));
  return out;
}

function documentNumber(random: Random): string {
  const shape = Math.floor(random() * 5);
  if (shape === 0) return chars(random, DIGITS, 9);
  if (shape === 1) return chars(random, LETTERS, 2) + chars(random, DIGITS, 7);
  if (shape === 2) return chars(random, LETTERS, 1) + chars(random, LETTERS + DIGITS, 8);
  if (shape === 3) return chars(random, LETTERS + DIGITS, 8);
  return chars(random, LETTERS, 3) + chars(random, DIGITS, 6);
}

function date(random: Random, fromYear: number, toYear: number): string {
  const year = Math.floor(between(random, fromYear, toYear + 1));
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return [year % 100, month, day].map((v) => String(v).padStart(2, '0')).join('');
}

const CODES: Record<TravelFormat, string[]> = {
  TD1: ['I', 'ID', 'IR', 'AC', 'C'],
  TD2: ['I', 'ID', 'IR', 'AC'],
  TD3: ['P', 'P', 'P', 'PM', 'PD', 'PO'],
};

/** A random document of `format`: varied names, number, states, dates, sex and optional data. */
export function randomDocument(random: Random, format: TravelFormat): TravelDocument {
  const state = pick(random, STATES);
  const optional = random() < 0.5 ? '' : chars(random, DIGITS, 4 + Math.floor(random() * 8));
  return {
    documentCode: pick(random, CODES[format]),
    issuingState: state,
    nationality: random() < 0.85 ? state : pick(random, STATES),
    documentNumber: documentNumber(random),
    surname: pick(random, SURNAMES),
    givenNames: pick(random, GIVEN_NAMES),
    birthDate: date(random, 1940, 2015),
    sex: pick(random, ['M', 'F', 'F', 'M', '<'] as const),
    expiryDate: date(random, 2022, 2038),
    optionalData: optional,
    optionalData2: format === 'TD1' && random() < 0.3 ? chars(random, DIGITS, 6) : '',
  };
}
