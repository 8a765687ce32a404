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
export const SORT_WORDS = /\b(sort|order|sorted|ascending|descending|asc|desc|a\s*[-–→]\s*z|z\s*[-–→]\s*a|low to high|high to low|cheapest|newest|oldest)\b|[↑↓▲▼⇅]|排序|升序|降序|从低到高|从高到低|\b(?:trier|tri|croissant|décroissant|ordenar|ascendente|descendente)\b|並べ替え|昇順|降順|ソート|\b(?:sortieren|aufsteigend|absteigend)\b|정렬|오름차순|내림차순|\b(?:classificar|crescente|decrescente)\b/i;
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

/** Buttons that send or advance what was entered (a form's submit, a wizard's next step), 8+ languages. */
export const SUBMIT_WORDS = /\b(submit|send|save|add|create|next|continue|confirm|apply|ok|sign ?up|sign ?in|log ?in|register|subscribe|search|go|calculate|convert|book|order|pay|checkout|finish|done)\b|[→›»]\s*$|提交|发送|保存|添加|下一步|继续|确认|确定|注册|登录|搜索|计算|envoyer|enregistrer|ajouter|suivant|continuer|valider|confirmer|s'inscrire|connexion|rechercher|calculer|enviar|guardar|añadir|agregar|siguiente|continuar|confirmar|registrarse|buscar|calcular|送信|保存|追加|次へ|続ける|確認|登録|ログイン|検索|計算|senden|absenden|speichern|hinzufügen|weiter|fortfahren|bestätigen|anmelden|registrieren|suchen|berechnen|제출|보내기|저장|추가|다음|계속|확인|가입|로그인|검색|계산|salvar|adicionar|próximo|seguinte|cadastrar|entrar|pesquisar/i;

/** Buttons that go back, cancel or throw away what was entered: never the way to submit it. */
export const RETREAT_WORDS = /\b(back|previous|prev|cancel|close|dismiss|reset|clear|discard|undo|delete|remove)\b|^\s*[←‹«×✕✖]|返回|上一步|取消|关闭|重置|清除|清空|删除|retour|précédent|annuler|fermer|réinitialiser|effacer|supprimer|atrás|volver|anterior|cancelar|cerrar|restablecer|borrar|eliminar|戻る|前へ|キャンセル|閉じる|リセット|クリア|削除|zurück|vorherige|abbrechen|schließen|zurücksetzen|löschen|뒤로|이전|취소|닫기|초기화|지우기|삭제|voltar|fechar|limpar|excluir/i;

/** A stepper's "more" button (a cart line's quantity, a servings count): "+", "Increase …", 8+ languages. */
export const INCREASE_WORDS = /^\s*[+＋➕]\s*$|\b(increase|increment|plus|more|add one)\b|增加|加一|augmenter|aumentar|erhöhen|mehr|増やす|増加|증가|늘리기/i;

/** A stepper's "less" button: "−", "Decrease …", 8+ languages. */
export const DECREASE_WORDS = /^\s*[-−–—﹣－➖]\s*$|\b(decrease|decrement|minus|less|reduce)\b|减少|减一|diminuer|réduire|disminuir|reducir|verringern|weniger|減らす|減少|감소|줄이기|diminuir/i;
