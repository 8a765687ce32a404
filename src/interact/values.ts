/**
 * Plausible values a person would type into a field, chosen from its type, name and placeholder, so
 * forms can be submitted (validation that rejects well-formed input is then the app's defect).
 */
export function valueFor(field: { type?: string; name: string }): string {
  const type = (field.type ?? 'text').toLowerCase();
  const hint = field.name.toLowerCase();
  switch (type) {
    case 'email':
      return 'alex.doe@example.com';
    case 'number':
      return measure(hint) ?? '42';
    case 'tel':
      return '5551234567';
    case 'url':
      return 'https://example.com';
    case 'password':
      return 'Passw0rd!2024';
    case 'date':
      return '2025-03-15';
    case 'time':
      return '14:30';
    case 'datetime-local':
      return '2025-03-15T14:30';
    case 'month':
      return '2025-03';
    case 'week':
      return '2025-W11';
    case 'color':
      return '#3366ff';
    case 'search':
      return 'test';
  }
  if (/e-?mail|邮箱|correo|メール|이메일/.test(hint)) return 'alex.doe@example.com';
  if (/phone|tel|电话|手机|teléfono|電話|전화/.test(hint)) return '5551234567';
  if (/name|姓名|名字|nombre|nom|名前|이름/.test(hint)) return 'Alex Doe';
  const m = measure(hint);
  if (m) return m;
  if (/age|qty|quantity|amount|price|count|number|数量|金额|价格|年龄|\d/.test(hint)) return '42';
  if (/city|城市|ciudad|ville/.test(hint)) return 'Berlin';
  if (/search|搜索|buscar|recherche|検索|검색/.test(hint)) return 'test';
  return type === 'textarea' ? 'This is a short test note.' : 'Test item';
}

/**
 * A body measure a person would enter for a field named for it (a BMI form's height in cm, weight in kg, an
 * age in years), in 8 languages; null for anything else. 42 everywhere made a height of 42 cm that a BMI
 * page rightly refused, so its result was never seen.
 */
function measure(hint: string): string | null {
  if (/height|身高|altura|taille|größe|groesse|身長|키|ऊंचाई|लंबाई|рост/.test(hint)) return /\b(ft|feet|in|inch)/.test(hint) ? '5.8' : /\bm\b|metre|meter|米/.test(hint) && !/cm|厘米|центим/.test(hint) ? '1.75' : '170';
  if (/weight|体重|peso|poids|gewicht|체중|몸무게|वजन|вес/.test(hint)) return /\b(lb|lbs|pound)/.test(hint) ? '154' : '70';
  if (/\bage\b|年龄|edad|âge|alter|年齢|나이|उम्र|возраст/.test(hint)) return '30';
  return null;
}
