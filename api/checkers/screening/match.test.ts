import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareCountry, compareDateOfBirth, consonantSkeleton, countryKey, jaroWinkler, judge, nameSimilarity } from './match.ts';
import { nameTokens } from './names.ts';

const similarity = (a: string, b: string) => Math.round(nameSimilarity(nameTokens(a), nameTokens(b)) * 1000) / 1000;

describe('jaroWinkler', () => {
  test('gives the textbook values (Winkler 1990: MARTHA/MARHTA, DWAYNE/DUANE, DIXON/DICKSONX)', () => {
    assert.equal(jaroWinkler('martha', 'marhta').toFixed(4), '0.9611');
    assert.equal(jaroWinkler('dwayne', 'duane').toFixed(4), '0.8400');
    assert.equal(jaroWinkler('dixon', 'dicksonx').toFixed(4), '0.8133');
  });

  test('is 1 for equal strings and 0 against an empty one or with no letter in common', () => {
    assert.equal(jaroWinkler('abc', 'abc'), 1);
    assert.equal(jaroWinkler('abc', ''), 0);
    assert.equal(jaroWinkler('abc', 'xyz'), 0);
  });
});

describe('nameSimilarity', () => {
  test('an order swap and a surname-first listing cost nothing', () => {
    assert.equal(similarity('Abu Abbas', 'ABBAS, Abu'), 1);
    assert.equal(similarity('Hasan Nasrallah', 'NASRALLAH, Hasan'), 1);
  });

  test('spelling variants and transliterations stay above the candidate floor', () => {
    assert.ok(similarity('Hassan Nasrallah', 'NASRALLAH, Hasan') >= 0.95);
    assert.ok(similarity('Bosco Ntaganda', 'BOSCO TAGANDA') >= 0.95);
    assert.ok(similarity('Osama bin Laden', 'BIN LADIN, Usama bin Muhammad bin Awad') >= 0.8);
    assert.ok(similarity('Владимир Путин', 'PUTIN, Vladimir Vladimirovich') >= 0.95);
  });

  test('an extra middle name on either side lowers the score only a little', () => {
    assert.equal(similarity('Ayman Muhammad al-Zawahiri', 'AL ZAWAHIRI, Dr. Ayman'), 0.967);
  });

  test('one shared part of a name of several is capped at 0.6', () => {
    assert.equal(similarity('Cimex', 'CIMEX IBERICA'), 0.6);
    assert.equal(similarity('Hassan Nasser', 'NASRALLAH, Hasan'), 0.433);
  });

  test('a short name inside a long one loses a share for each unpaired part after the first', () => {
    assert.equal(similarity('Abu Abbas', 'PALESTINE LIBERATION FRONT - ABU ABBAS FACTION'), 0.793);
  });

  test('parts that sound alike pair: the same consonants, the same first letter or both vowels, similar lengths', () => {
    assert.equal(consonantSkeleton('hezbollah'), consonantSkeleton('hizballah'));
    assert.ok(similarity('Mousa Marzuq', 'Musa Marzook') >= 0.9);
    assert.ok(similarity('Ahmed Ali', 'Mohamed Ali') < 0.8, 'Ahmed and Mohamed share their consonants but not their first letter');
    assert.ok(similarity('Abboud Zumar', 'Abd Zumar') < 0.8, 'Abd is half the length of Abboud');
  });

  test('a surname-first listing read in rotation meets a name joined differently', () => {
    assert.ok(similarity('Abdelaziz Awda', 'AWDA, Abd Al Aziz') >= 0.95);
  });

  test('a short part that only begins a long one is not a pair (Abd / Abdulrahman)', () => {
    assert.ok(similarity('Abdulrahman Awda', 'AWDA, Abd Al Aziz') < 0.8);
  });

  test('a name joined differently matches on its letters run together', () => {
    assert.ok(similarity('Abdulrahman Yasin', 'Abdul Rahman Yasin') >= 0.93);
  });
});

describe('qualifiers', () => {
  test('a date of birth agrees at the precision the list gives', () => {
    assert.equal(compareDateOfBirth('1948-12-10', ['1948-12-10']), 'agrees');
    assert.equal(compareDateOfBirth('1948-12-10', ['1948']), 'agrees');
    assert.equal(compareDateOfBirth('1948', ['1948-12-10']), 'agrees');
    assert.equal(compareDateOfBirth('1950-01-01', ['1948', '1949']), 'disagrees');
    assert.equal(compareDateOfBirth(undefined, ['1948']), 'unknown');
    assert.equal(compareDateOfBirth('1948', []), 'unknown');
  });

  test('a country given as a code or a name meets the list\'s long forms', () => {
    assert.equal(countryKey('RU'), 'russia');
    assert.equal(countryKey('Russian Federation'), 'russia');
    assert.equal(compareCountry('CD', ['Democratic Republic of the Congo']), 'agrees');
    assert.equal(compareCountry('KP', ["Democratic People's Republic of Korea"]), 'agrees');
    assert.equal(compareCountry('Syria', ['Syrian Arab Republic']), 'agrees');
    assert.equal(compareCountry('AU', ['Iraq', 'Syrian Arab Republic']), 'disagrees');
    assert.equal(compareCountry('AU', []), 'unknown');
  });
});

describe('judge', () => {
  test('a name-only hit is possible, never strong, however close the name', () => {
    assert.deepEqual(judge(1, 'unknown', 'unknown'), { score: 1, strength: 'possible', corroboration: [], contradiction: [] });
  });

  test('a close name with a qualifier that agrees and none that differs is strong', () => {
    assert.deepEqual(judge(0.95, 'agrees', 'unknown'), { score: 0.95, strength: 'strong', corroboration: ['date_of_birth'], contradiction: [] });
  });

  test('a qualifier that differs makes it weak and takes logic-v1\'s weight off the score', () => {
    assert.deepEqual(judge(1, 'disagrees', 'agrees'), { score: 0.85, strength: 'weak', corroboration: ['country'], contradiction: ['date_of_birth'] });
    assert.deepEqual(judge(1, 'unknown', 'disagrees'), { score: 0.8, strength: 'weak', corroboration: [], contradiction: ['country'] });
  });

  test('a name below the strong floor stays possible even when corroborated', () => {
    assert.equal(judge(0.85, 'agrees', 'agrees').strength, 'possible');
  });
});
