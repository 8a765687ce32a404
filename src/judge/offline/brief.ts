import type { TraceStep } from '../../types.js';

/**
 * The brief's core features, read from the query text by one generic rule set (issue 11 point 2; paper
 * §4.1 intent alignment; METHOD.md §9 "core feature broken −3"): never a per-query checklist. A feature
 * is an action concept (add, delete, calculate, …) named in the query in any of Cookie-Bench's 8
 * languages (zh, en, fr, es, ja, de, ko, pt; English terms are always tried as a fallback). A control
 * serves a feature when its accessible name (label, placeholder, text, title) names the concept.
 */

/** One action concept: its id and the words that name it, per language (lower case; CJK as substrings). */
interface Concept {
  id: string;
  /** Terms that name the action in a query or on a control. */
  terms: string[];
  /** Terms accepted on a control only (symbols and short labels too ambiguous in a query). */
  controlOnly?: string[];
}

const CONCEPTS: Concept[] = [
  { id: 'add', terms: ['add', 'create', 'new task', 'new item', 'ajouter', 'créer', 'añadir', 'agregar', 'crear', 'adicionar', 'criar', 'hinzufügen', 'anlegen', '添加', '新增', '增加', '新建', '加入', '追加', '作成', '추가', '생성'], controlOnly: ['+', '＋'] },
  { id: 'delete', terms: ['delete', 'remove', 'supprimer', 'eliminar', 'borrar', 'excluir', 'remover', 'löschen', 'entfernen', '删除', '移除', '削除', '삭제', '제거'], controlOnly: ['×', '✕', '✖', '🗑'] },
  { id: 'complete', terms: ['mark done', 'mark them done', 'complete', 'check off', 'tick', 'terminer', 'completar', 'concluir', 'erledigt', 'abhaken', '完成', '完了', '완료'] },
  { id: 'filter', terms: ['filter', 'filtrer', 'filtrar', 'filtern', '筛选', '过滤', 'フィルタ', '絞り込', '필터'] },
  { id: 'search', terms: ['search', 'rechercher', 'buscar', 'pesquisar', 'suchen', '搜索', '查找', '検索', '검색'] },
  { id: 'sort', terms: ['sort', 'trier', 'ordenar', 'sortieren', '排序', '並べ替え', '정렬'] },
  { id: 'calculate', terms: ['calculate', 'calculator', 'compute', 'calculer', 'calculatrice', 'calcular', 'calculadora', 'berechnen', 'rechner', '计算', '計算', '계산'], controlOnly: ['='] },
  { id: 'convert', terms: ['convert', 'converter', 'convertir', 'conversor', 'convertisseur', 'umrechnen', 'konvertieren', '转换', '换算', '変換', '換算', '변환'] },
  { id: 'submit', terms: ['submit', 'sign up', 'signup', 'register', 'send', 'subscribe', 'envoyer', "s'inscrire", 'inscription', 'enviar', 'registrar', 'suscribir', 'cadastrar', 'inscrever', 'absenden', 'senden', 'registrieren', 'anmelden', '提交', '注册', '发送', '订阅', '送信', '登録', '제출', '가입', '등록', '전송'] },
  { id: 'start', terms: ['start', 'play', 'begin', 'démarrer', 'commencer', 'jouer', 'iniciar', 'empezar', 'jugar', 'começar', 'jogar', 'starten', 'spielen', '开始', '启动', '播放', '開始', 'スタート', '再生', '시작', '재생'] },
  { id: 'pause', terms: ['pause', 'stop', 'arrêter', 'pausa', 'detener', 'parar', 'anhalten', '暂停', '停止', '一時停止', '일시정지', '정지'] },
  { id: 'reset', terms: ['reset', 'restart', 'clear', 'réinitialiser', 'effacer', 'recommencer', 'reiniciar', 'limpiar', 'restablecer', 'limpar', 'zurücksetzen', 'neustart', 'leeren', '重置', '清零', '清空', '重新开始', 'リセット', 'クリア', '리셋', '초기화', '지우기'] },
  { id: 'save', terms: ['save', 'download', 'export', 'enregistrer', 'sauvegarder', 'télécharger', 'guardar', 'descargar', 'exportar', 'salvar', 'baixar', 'speichern', 'herunterladen', 'exportieren', '保存', '下载', '导出', 'ダウンロード', 'エクスポート', '저장', '다운로드', '내보내기'] },
  { id: 'next', terms: ['next', 'previous', 'suivant', 'précédent', 'siguiente', 'anterior', 'próximo', 'weiter', 'zurück', '下一', '上一', '次へ', '前へ', '다음', '이전'] },
  { id: 'increment', terms: ['increment', 'count up', 'plus one', 'incrémenter', 'incrementar', 'erhöhen', '加一', '加1', 'インクリメント', '증가'], controlOnly: ['+1', '＋1'] },
  { id: 'decrement', terms: ['decrement', 'count down', 'minus one', 'décrémenter', 'decrementar', 'verringern', '减一', '减1', 'デクリメント', '감소'], controlOnly: ['-1', '−1', '－1'] },
  { id: 'drag', terms: ['drag', 'drag and drop', 'drag & drop', 'glisser', 'glisser-déposer', 'arrastrar', 'arrastar', 'ziehen', '拖拽', '拖动', '拖放', 'ドラッグ', '드래그'] },
  { id: 'flip', terms: ['flip', 'retourner', 'voltear', 'virar', 'umdrehen', '翻转', '翻面', 'めくる', '뒤집'] },
  { id: 'toggle-theme', terms: ['dark mode', 'theme', 'mode sombre', 'thème', 'modo oscuro', 'tema', 'modo escuro', 'dunkelmodus', 'design', '深色', '暗色', '主题', 'ダークモード', 'テーマ', '다크 모드', '테마'] },
];

/** A core feature the brief asks for. */
export interface BriefFeature {
  /** Concept id (add, delete, calculate, …). */
  id: string;
  /** The words of the query that named it. */
  named: string[];
}

const isCjk = (t: string) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(t);

/** Word endings a term may carry and still name its concept (adds, added, adding, …). */
const SUFFIXES = ['s', 'es', 'ed', 'ing', 'er', 'en', 'e', 'r'];
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** True when no letter or digit ends at `i` (exclusive) in `text`: the start, or a separator before it. */
function boundaryBefore(text: string, i: number): boolean {
  if (i === 0) return true;
  const low = text.charCodeAt(i - 1);
  const at = low >= 0xdc00 && low <= 0xdfff && i >= 2 ? i - 2 : i - 1;
  return !LETTER_OR_DIGIT.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** True when no letter or digit starts at `i` in `text`: the end, or a separator. */
function boundaryAt(text: string, i: number): boolean {
  return i >= text.length || !LETTER_OR_DIGIT.test(String.fromCodePoint(text.codePointAt(i)!));
}

/**
 * True when `text` names `term`: CJK terms and symbols as substrings, others as whole words, optionally
 * with an ending from {@link SUFFIXES} (lower case). Plain string search (the judge asks for every term
 * of every concept on every text: a pattern per term cost ~0.1 s an evaluation).
 */
function names(text: string, term: string): boolean {
  if (isCjk(term) || !LETTER_OR_DIGIT.test(term)) return text.includes(term);
  for (let i = text.indexOf(term); i !== -1; i = text.indexOf(term, i + 1)) {
    if (!boundaryBefore(text, i)) continue;
    const end = i + term.length;
    if (boundaryAt(text, end) || SUFFIXES.some((x) => text.startsWith(x, end) && boundaryAt(text, end + x.length))) return true;
  }
  return false;
}

/**
 * The core features of a brief: every concept the query names (in any of the 8 languages; English always
 * tried). Order follows {@link CONCEPTS}; empty when the brief names no action (a pure animation, a
 * static page).
 * @param prompt the query text
 */
export function briefFeatures(prompt: string): BriefFeature[] {
  const q = prompt.toLowerCase();
  const out: BriefFeature[] = [];
  for (const c of CONCEPTS) {
    const named = c.terms.filter((t) => names(q, t));
    if (named.length) out.push({ id: c.id, named });
  }
  return out;
}

/**
 * The concept a control serves, from its accessible name (label, placeholder, text, title): the first
 * concept whose term (or control-only symbol) it names, or null.
 */
export function conceptOfControl(name: string): string | null {
  const n = name.toLowerCase().trim();
  if (!n) return null;
  for (const c of CONCEPTS) {
    if (c.terms.some((t) => names(n, t))) return c.id;
    if (c.controlOnly?.some((t) => n === t || names(n, t))) return c.id;
  }
  return null;
}

/** Lower-case letters and digits of a label, single-spaced (emoji, symbols and punctuation dropped). */
const labelWords = (t: string): string => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * The controls a brief names in quotes ('a "New quote" button', «Nouvelle citation», 「保存」): a control whose
 * label (emoji and punctuation aside) is one of them serves the brief, whatever its words — the concept table
 * cannot list every app's verbs. Returns a predicate on a control's accessible name; phrases under 2 letters
 * are ignored.
 */
export function quotedInBrief(prompt: string): (controlName: string) => boolean {
  const quoted = [...prompt.matchAll(/"([^"]{2,40})"|“([^”]{2,40})”|«\s*([^»]{2,40}?)\s*»|「([^」]{1,40})」|『([^』]{1,40})』|'([^']{2,40})'/g)]
    .map((m) => labelWords(m.slice(1).find((x) => x !== undefined) ?? ''))
    .filter((q) => [...q.replace(/ /g, '')].length >= 2);
  return (name) => {
    const n = labelWords(name);
    return !!n && quoted.some((q) => n === q);
  };
}

/**
 * The inputs a brief asks for by name ("bill amount, tip percentage, number of people"): a field whose label
 * has a word of 3 or more letters (2 or more in a script written without spaces) that the brief also uses is
 * one of them. Returns a predicate on a field's accessible name. Used to weigh an error the field throws
 * (rubric item 3): the brief's own input failing is more than a secondary control's.
 */
export function namedInBrief(prompt: string): (fieldName: string) => boolean {
  const brief = ` ${labelWords(prompt)} `;
  // (a script written without spaces has no word boundaries to match on: its words are looked for anywhere)
  const inBrief = (w: string) => (isCjk(w) ? [...w].length >= 2 && brief.includes(w) : [...w].length >= 3 && !/^\d+$/.test(w) && brief.includes(` ${w} `));
  return (name) => labelWords(name).split(' ').some(inBrief);
}

/** How a brief feature fared in the interaction trace (rubric item 3a). */
export interface FeatureTally {
  feature: string;
  /** `working`: its control had a visible effect; `failing`: dead after every try or threw; `untested`: a control was found but not exercised by a click; `not-found`: no control names it. */
  status: 'working' | 'failing' | 'untested' | 'not-found';
  /** The control taken for the feature (role "name"), so a reader can check the match. */
  control?: string;
}

/**
 * Tally the brief's features against the exercised controls (rubric item 3a: found and working / found and
 * failing / not found). `failingSignatures` are the controls the judge found dead or throwing.
 * @param controls every control the agent saw (signature and accessible name), scanned at the start of steps
 */
export function tallyFeatures(features: BriefFeature[], steps: TraceStep[], controls: { signature: string; name: string; role: string }[], failingSignatures: Set<string>): FeatureTally[] {
  return features.map((f) => {
    // dragging has no control of its own: the drag steps serve it
    if (f.id === 'drag') {
      const drags = steps.filter((s) => s.action.kind === 'drag' && s.check?.invariant === 'move' && s.outcome === 'ok');
      if (!drags.length) return { feature: f.id, status: 'not-found' as const };
      const moved = drags.find((s) => s.effect?.screenChanged);
      return { feature: f.id, status: moved ? ('working' as const) : ('untested' as const), control: `drag "${(moved ?? drags[0]!).check!.subject}"` };
    }
    const named = controls.filter((c) => conceptOfControl(c.name) === f.id);
    // the control that performs the action (a button), not the field that feeds it ("New task" textbox)
    const acting = named.filter((c) => c.role !== 'textbox' && c.role !== 'combobox' && c.role !== 'searchbox');
    const serving = acting.length ? acting : named;
    if (!serving.length) return { feature: f.id, status: 'not-found' as const };
    const clicked = serving.filter((c) => steps.some((s) => s.action.target?.signature === c.signature && s.outcome === 'ok'));
    const working = clicked.find((c) => steps.some((s) => s.action.target?.signature === c.signature && s.effect?.screenChanged));
    if (working) return { feature: f.id, status: 'working' as const, control: `${working.role} "${working.name}"` };
    const failing = clicked.find((c) => failingSignatures.has(c.signature));
    if (failing) return { feature: f.id, status: 'failing' as const, control: `${failing.role} "${failing.name}"` };
    const c = clicked[0] ?? serving[0]!;
    return { feature: f.id, status: 'untested' as const, control: `${c.role} "${c.name}"` };
  });
}
