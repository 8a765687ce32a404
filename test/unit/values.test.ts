import { describe, expect, it } from 'vitest';
import { valueFor } from '../../src/interact/values.js';

describe('values a person would type', () => {
  it('fits the field\'s type: an e-mail, a phone number, a picker\'s format', () => {
    expect(valueFor({ type: 'email', name: 'Your e-mail' })).toBe('alex.doe@example.com');
    expect(valueFor({ type: 'date', name: 'Event date' })).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(valueFor({ type: 'text', name: '姓名' })).toBe('Alex Doe');
  });
  it('a body measure is one a person has: a BMI form\'s height 170 cm (not 42), weight 70 kg, age 30, in any of its languages', () => {
    expect(valueFor({ type: 'number', name: 'Height (cm)' })).toBe('170');
    expect(valueFor({ type: 'number', name: 'लंबाई (सेमी)' })).toBe('170');
    expect(valueFor({ type: 'number', name: 'Height (m)' })).toBe('1.75');
    expect(valueFor({ type: 'number', name: 'Weight (lbs)' })).toBe('154');
    expect(valueFor({ type: 'number', name: '体重 (kg)' })).toBe('70');
    expect(valueFor({ type: 'text', name: 'Edad' })).toBe('30');
    // anything else keeps the plain number
    expect(valueFor({ type: 'number', name: 'Loan amount' })).toBe('42');
  });
});
