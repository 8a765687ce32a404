import { describe, expect, it } from 'vitest';
import { checkLanguage } from '../../src/common/language-check.js';
import { toIso6391 } from '../../src/spec/language.js';

describe('language codes', () => {
  it.each([
    ['zh', 'zh'], ['Chinese', 'zh'], ['english', 'en'], ['Portuguese', 'pt'], ['ja', 'ja'], ['zh-CN', 'zh'],
    ['Filipino', 'tl'], ['Norwegian', 'no'], ['cmn', 'zh'], ['Vietnamese', 'vi'], ['Greek', 'el'],
  ])('%s → %s', (input, code) => expect(toIso6391(input)).toBe(code));
  it('returns null for an unknown language', () => expect(toIso6391('Klingonese')).toBeNull());
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
