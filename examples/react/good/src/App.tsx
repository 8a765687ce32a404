import { Check, Flame, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

type Habit = { id: number; name: string; days: boolean[] };
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export default function App() {
  const [habits, setHabits] = useState<Habit[]>([
    { id: 1, name: 'Read 20 pages', days: [true, true, false, true, false, false, false] },
    { id: 2, name: 'Morning walk', days: [true, false, false, false, false, false, false] },
  ]);
  const [name, setName] = useState('');
  const add = () => {
    if (!name.trim()) return;
    setHabits((h) => [...h, { id: Date.now(), name: name.trim(), days: Array(7).fill(false) }]);
    setName('');
  };
  const toggle = (id: number, d: number) => setHabits((h) => h.map((x) => (x.id === id ? { ...x, days: x.days.map((v, i) => (i === d ? !v : v)) } : x)));
  const remove = (id: number) => setHabits((h) => h.filter((x) => x.id !== id));
  return (
    <main className="min-h-screen bg-gradient-to-b from-emerald-50 to-white px-4 py-10 text-slate-800">
      <div className="mx-auto max-w-2xl">
        <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight"><Flame className="text-orange-500" /> Habit tracker</h1>
        <p className="mt-1 text-slate-500">Tick off each day you kept a habit. Streaks count consecutive days.</p>
        <form className="mt-6 flex gap-2" onSubmit={(e) => { e.preventDefault(); add(); }}>
          <input className="flex-1 rounded-md border border-slate-300 px-3 py-2 shadow-sm transition focus:border-emerald-500 focus:outline-none" placeholder="New habit" aria-label="New habit" value={name} onChange={(e) => setName(e.target.value)} />
          <Button type="submit"><Plus size={16} /> Add habit</Button>
        </form>
        <ul className="mt-6 space-y-3">
          {habits.map((h) => {
            const streak = h.days.reduce((s, v) => (v ? s + 1 : 0), 0);
            return (
              <li key={h.id} className="rounded-xl bg-white p-4 shadow-md">
                <div className="flex items-center justify-between">
                  <span className="font-medium">{h.name}</span>
                  <span className="text-sm text-slate-500">streak {streak}</span>
                  <Button variant="ghost" size="icon" aria-label={`Delete ${h.name}`} onClick={() => remove(h.id)}><Trash2 size={16} /></Button>
                </div>
                <div className="mt-3 grid grid-cols-7 gap-2">
                  {DAYS.map((d, i) => (
                    <button key={d} aria-label={`${h.name} ${d}`} onClick={() => toggle(h.id, i)} className={`flex h-10 flex-col items-center justify-center rounded-md text-xs transition ${h.days[i] ? 'bg-emerald-500 text-white' : 'bg-slate-100 hover:bg-slate-200'}`}>
                      {h.days[i] ? <Check size={14} /> : d}
                    </button>
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </main>
  );
}
