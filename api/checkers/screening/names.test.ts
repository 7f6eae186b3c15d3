import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nameTokens, normaliseName } from './names.ts';

describe('normaliseName', () => {
  test('folds case, accents, apostrophes and punctuation into one spaced form', () => {
    assert.equal(normaliseName('MUÑOZ  Hermanos, S.A.'), 'munoz hermanos s a');
    assert.equal(normaliseName("Muhammad Sa'id `Abd-al-Rahman"), 'muhammad said abd al rahman');
    assert.equal(normaliseName('Amir Muhammad Sa’id ‘Abd-al-Rahman'), 'amir muhammad said abd al rahman');
    assert.equal(normaliseName('Forces Démocratiques Alliées'), 'forces democratiques alliees');
  });

  test('romanises Cyrillic, Greek and Arabic letters and letters decomposition keeps whole', () => {
    assert.equal(normaliseName('Владимир Путин'), 'vladimir putin');
    assert.equal(normaliseName('Сергей Щербаков'), 'sergey shcherbakov');
    assert.equal(normaliseName('Γιώργος'), 'giorgos');
    assert.equal(normaliseName('محمد حسن أخوند'), 'mhmd hsn akhund');
    assert.equal(normaliseName('Łukasz Strauß Ørsted'), 'lukasz strauss orsted');
  });

  test('folds full-width letters (NFKC) and an empty or symbol-only name to nothing', () => {
    assert.equal(normaliseName('ＡＢＣ'), 'abc');
    assert.equal(normaliseName(' -- '), '');
  });
});

describe('nameTokens', () => {
  test('drops honorifics, legal forms spelt whole or in initials, and particles', () => {
    assert.deepEqual(nameTokens('AL ZAWAHIRI, Dr. Ayman'), ['zawahiri', 'ayman']);
    assert.deepEqual(nameTokens('CIMEX, S.A.'), ['cimex']);
    assert.deepEqual(nameTokens('ANGLO-CARIBBEAN CO., LTD.'), ['anglo', 'caribbean']);
    assert.deepEqual(nameTokens('BIN LADIN, Usama bin Muhammad bin Awad'), ['ladin', 'usama', 'muhammad', 'awad']);
    assert.deepEqual(nameTokens('FADLALLAH, Shaykh Muhammad Husayn'), ['fadlallah', 'muhammad', 'husayn']);
    assert.deepEqual(nameTokens('Acme Holdings L.L.C.'), ['acme', 'holdings']);
  });

  test('a name made only of dropped words keeps them rather than becoming empty', () => {
    assert.deepEqual(nameTokens('General Company'), ['general', 'company']);
    assert.deepEqual(nameTokens('...'), []);
  });
});
