/**
 * Words of the controls a careful tester looks for, in Cookie-Bench's 8 languages (Chinese, English,
 * French, Spanish, Japanese, German, Korean, Portuguese; METHOD.md §3). Matched against accessible names.
 */

/** Adding an item. */
export const ADD_WORDS = /^\s*\+\s*$|\b(add|create|new|save|submit|insert|append)\b|添加|新增|增加|加入|添加任务|ajouter|créer|añadir|agregar|crear|追加|作成|hinzufügen|anlegen|erstellen|추가|만들기|adicionar|criar|incluir/i;
/** Deleting or removing one item. */
export const DELETE_WORDS = /^\s*[×✕✖x🗑❌]\s*$|\b(delete|remove|del|trash|discard|archive)\b|删除|刪除|移除|supprimer|retirer|eliminar|borrar|quitar|削除|löschen|entfernen|삭제|제거|excluir|remover|apagar/i;
/** Marking an item done. */
export const COMPLETE_WORDS = /\b(done|complete|completed|finish|check|toggle)\b|完成|terminé|terminer|hecho|completar|完了|erledigt|fertig|완료|concluir|feito/i;
/** Sorting. */
export const SORT_WORDS = /\b(sort|order|sorted|ascending|descending|asc|desc|a\s*[-–→]\s*z|z\s*[-–→]\s*a|low to high|high to low|cheapest|newest|oldest)\b|[↑↓▲▼⇅]|排序|升序|降序|从低到高|从高到低|trier|tri\b|croissant|décroissant|ordenar|ascendente|descendente|並べ替え|昇順|降順|ソート|sortieren|aufsteigend|absteigend|정렬|오름차순|내림차순|classificar|crescente|decrescente/i;
/** Search or filter fields. */
export const SEARCH_WORDS = /\b(search|filter|find|query|lookup)\b|搜索|搜尋|查找|筛选|rechercher|recherche|filtrer|buscar|búsqueda|filtrar|検索|絞り込み|suchen|suche|filtern|검색|필터|pesquisar|procurar|busca/i;
/** Filter buttons: show done (completed) items. */
export const FILTER_DONE_WORDS = /^\s*(done|completed|complete|finished|已完成|完成|terminées?|terminés?|complétées?|completadas?|hechas?|完了|済み|erledigt|abgeschlossen|완료|완료됨|concluídas?|feitas?)\s*(\(\d+\))?\s*$/i;
/** Filter buttons: show open (active, pending) items. */
export const FILTER_OPEN_WORDS = /^\s*(active|open|pending|todo|to do|remaining|未完成|进行中|待办|actives?|en cours|à faire|activas?|pendientes?|未完了|未完|offen|aktiv|ausstehend|진행중|진행 중|미완료|ativas?|pendentes?|abertas?)\s*(\(\d+\))?\s*$/i;
/** Language switches (names of languages, codes) and theme switches. */
export const LANGUAGE_WORDS = /^\s*(EN|DE|FR|ES|PT|JA|JP|ZH|CN|KO|KR|English|Deutsch|Français|Español|Português|日本語|中文|简体中文|繁體中文|한국어|Русский|Italiano|🌐.*)\s*$|\b(language|sprache|langue|idioma|lingua)\b|语言|言語|언어/i;
/** Theme switches (dark/light). */
export const THEME_WORDS = /\b(dark|light|theme|night|day mode|dark mode|light mode)\b|[🌙☀🌞🌓]|深色|浅色|主题|暗黑|sombre|clair|thème|oscuro|claro|tema|ダーク|ライト|テーマ|dunkel|hell|thema|다크|라이트|테마|escuro/i;
