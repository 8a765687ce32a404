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
      return '42';
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
  if (/age|qty|quantity|amount|price|count|number|数量|金额|价格|年龄|\d/.test(hint)) return '42';
  if (/city|城市|ciudad|ville/.test(hint)) return 'Berlin';
  if (/search|搜索|buscar|recherche|検索|검색/.test(hint)) return 'test';
  return type === 'textarea' ? 'This is a short test note.' : 'Test item';
}
