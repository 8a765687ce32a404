import { describe, expect, it } from 'vitest';
import { checkLanguage } from '../../src/common/language-check.js';
import { iso6393, iso6393To1 } from 'iso-639-3';
import { languageName, toIso6391 } from '../../src/spec/language.js';

describe('language codes', () => {
  it.each([
    ['zh', 'zh'], ['Chinese', 'zh'], ['english', 'en'], ['Portuguese', 'pt'], ['ja', 'ja'], ['zh-CN', 'zh'],
    ['Filipino', 'tl'], ['Norwegian', 'no'], ['cmn', 'zh'], ['Vietnamese', 'vi'], ['Greek', 'el'],
  ])('%s → %s', (input, code) => expect(toIso6391(input)).toBe(code));
  it('returns null for an unknown language', () => expect(toIso6391('Klingonese')).toBeNull());
  it('reads every code and name of the ISO 639-3 table as the table says (the few tables Cookie keeps, src/vendor/iso-639.data.ts)', () => {
    const to1 = iso6393To1 as Record<string, string>;
    for (const l of iso6393) {
      if (l.iso6391) {
        expect(toIso6391(l.iso6391)).toBe(l.iso6391);
        expect(toIso6391(l.name.toUpperCase())).not.toBeNull();
      }
      // an individual language of a macrolanguage reads as the macrolanguage (nno, nob → no: franc's codes)
      if (to1[l.iso6393]) expect(l.scope === 'individual' ? [to1[l.iso6393], 'no'] : [to1[l.iso6393]]).toContain(toIso6391(l.iso6393));
    }
    expect(languageName('el')).toBe(iso6393.find((l) => l.iso6391 === 'el')!.name);
    expect(languageName('xx')).toBe('xx');
    // names of Object.prototype are not languages
    expect([toIso6391('constructor'), toIso6391('toString'), toIso6391('__proto__')]).toEqual([null, null, null]);
  });
});

describe('page language vs query language', () => {
  it('accepts a Chinese page with Latin labels mixed in', () => {
    expect(checkLanguage('太阳系动画 FPS: 60 平均 FPS: 59 地球日: 123 水星 金星 地球 火星 木星', 'zh').matches).toBe(true);
  });
  it('flags an English page for a Chinese query', () => {
    const r = checkLanguage('Click counter. Press the buttons to count up or down, and reset whenever you like.', 'zh');
    expect(r.matches).toBe(false);
    expect(r.detected).toBe('en');
  });
  it('flags a French page for an English query', () => {
    expect(checkLanguage('Bienvenue dans notre application de tâches. Ajoutez des tâches et supprimez-les quand elles sont finies.', 'en').matches).toBe(false);
  });
  it('does not guess on too little text', () => {
    expect(checkLanguage('FPS 60', 'zh').matches).toBeNull();
  });
});

describe('technical labels are not language', () => {
  it('ignores FPS counters and capitalised labels on a canvas page', () => {
    expect(checkLanguage('FPS: 43.1\nAVG FPS: 59.7\nCURRENT FRAME: 88/200', 'zh').matches).toBeNull();
  });
});

describe('short label-only pages (franc on a few bare nouns is not evidence)', () => {
  // a colour-palette generator written by a model (helper pass, 2026-12-02): English, 74 letters of prose after
  // labels are dropped; franc ranked it French 1.00, English 0.73 — it was a critical "language mismatch"
  const palette = '🎨\nChroma\nPress Space to generate · click a code to copy · 🔓 to lock\nGenerate\n🔓\n2657D7\nSunset\n🔓\nA154EF\nDusk\n🔓\nBD89EF\nBlush\n🔓\n822D28\nSlate\n🔓\nDE256E\nLilac';
  it('English palette names with <html lang="en"> are English, never a confident mismatch', () => {
    const r = checkLanguage(palette, 'en', 'en');
    expect(r.matches).toBe(true);
    expect(r.confidence).toBe('unsure');
  });
  it('without <html lang> the same labels are not assessed', () => {
    expect(checkLanguage(palette, 'en').matches).toBeNull();
  });
  it('a short English weather card that franc reads as Norwegian (a language with no function-word list) is English by its <html lang>, not a critical mismatch', () => {
    // a weather app written for the hostile-and-real-pages review (2026-12-06): 69 letters, franc nob 1.00 / en 0.87
    const weather = '☀️ SkyCast\nSearch\nLisbon\n🌤️ Mainly clear\n16°\nOffline: showing sample data\nFri\n🌤️\n15° / 12°\nSat\n⛅\n22° / 8°\nSun\n☁️\n17° / 11°\nMon\n🌧️\n24° / 7°\nTue\n🌦️\n19° / 10°';
    expect(checkLanguage(weather, 'en', 'en')).toMatchObject({ matches: true, confidence: 'unsure' });
    expect(checkLanguage(weather, 'en').matches).toBeNull();
  });
  it('a short French UI with French function words is still a mismatch for an English query', () => {
    const r = checkLanguage('Générateur de palettes\nAppuyez sur Espace pour générer les couleurs et cliquez sur un code pour le copier dans votre presse-papiers', 'en', 'en');
    expect(r.matches).toBe(false);
    expect(r.detected).toBe('fr');
  });
});

describe('caseless scripts (Arabic, Hebrew, Devanagari) are prose too', () => {
  const arabic = 'مرحبا بكم في تطبيق قائمة المهام\nأضف مهمة جديدة واضغط على زر الحفظ لتخزينها\nالمهام المكتملة تظهر باللون الأخضر';
  it('an Arabic page for an Arabic query matches by its script', () => {
    const r = checkLanguage(arabic, 'ar');
    expect(r.matches).toBe(true);
    expect(r.expectedScriptShare).toBeGreaterThan(0.9);
  });
  it('an Arabic page with lower-case English labels mixed in still matches an Arabic query', () => {
    expect(checkLanguage(`${arabic}\nscore level reset`, 'ar').matches).toBe(true);
  });
  it('an Arabic page for an English query is the wrong script, not "too little prose"', () => {
    const r = checkLanguage(arabic, 'en');
    expect(r.matches).toBe(false);
    expect(r.detected).toBe('ar');
  });
  it('a Hebrew page for a Hebrew query matches', () => {
    expect(checkLanguage('ברוכים הבאים למחשבון שלנו\nהזינו מספרים ולחצו על כפתור החישוב', 'he').matches).toBe(true);
  });
  it('a Hindi page for a Hindi query matches', () => {
    expect(checkLanguage('हमारे कार्य सूची ऐप में आपका स्वागत है\nनया कार्य जोड़ें और सहेजें बटन दबाएं', 'hi').matches).toBe(true);
  });
});
