/**
 * The Cookie-Bench task taxonomy (paper §3.2, Appendix A.4, Tables 4–5): 2 page types (L1), 11 functional
 * domains (L2) and 54 task types (L3), with the definitions the classifier inlines (A.7), including the
 * sharpened definitions of the three confusable pairs (A.7.4). Every other part of Cookie uses this module.
 */

/** Page type (L1). */
export type PageType = 'Static web pages' | 'Dynamic web pages';

/** One leaf (L3) with its domain (L2), page type (L1), definition and example. */
export interface Leaf {
  l1: PageType;
  l2: string;
  l3: string;
  definition: string;
  example: string;
}

const S: PageType = 'Static web pages';
const D: PageType = 'Dynamic web pages';

/** All 54 leaves, in the paper's order. */
export const LEAVES: readonly Leaf[] = [
  { l1: S, l2: 'Display & Content', l3: 'Corporate Website', definition: 'Brand presentation, company info, contact details', example: 'Imitation of a brand homepage' },
  { l1: S, l2: 'Display & Content', l3: 'Product Landing Page', definition: 'Single product feature showcase, no transaction', example: 'Tesla model introduction page' },
  { l1: S, l2: 'Display & Content', l3: 'Marketing Landing Page', definition: 'Campaign-specific page with strong CTA', example: 'Double-11 promotion page' },
  { l1: S, l2: 'Display & Content', l3: 'Blog / Article Page', definition: 'Long-form reading with typography focus', example: 'Tech news article page' },
  { l1: S, l2: 'Display & Content', l3: 'Documentation / Help Center', definition: 'Structured technical docs with navigation', example: 'SaaS product manual' },
  { l1: S, l2: 'Display & Content', l3: 'Event / Announcement Page', definition: 'Event details, schedule, registration info', example: 'Tech conference page' },
  { l1: S, l2: 'Display & Content', l3: 'Portfolio / Personal Page', definition: 'Creative work showcase for individuals', example: 'Designer portfolio' },
  { l1: S, l2: 'Display & Content', l3: 'Static Data Display', definition: 'Non-periodic, one-off release of pre-computed read-only data: a single-year data page, a fixed public-indicator board, a research-findings release (revised definition, A.7.4)', example: 'Annual revenue report page' },
  { l1: S, l2: 'Tools & Productivity (Static)', l3: 'Unit Converter', definition: 'Client-side unit conversion (length, weight, etc.)', example: 'Meter ↔ Feet converter' },
  { l1: S, l2: 'Tools & Productivity (Static)', l3: 'Text Formatter', definition: 'Code/text formatting and minification', example: 'JSON formatter / minifier' },
  { l1: S, l2: 'Tools & Productivity (Static)', l3: 'Encoder / Decoder', definition: 'Encoding format conversion (Base64, URL, etc.)', example: 'Unicode converter' },
  { l1: S, l2: 'Tools & Productivity (Static)', l3: 'Validation Tool', definition: 'Format/rule verification (regex, schema, etc.)', example: 'Regex online tester' },
  { l1: S, l2: 'Tools & Productivity (Static)', l3: 'Text Processing Tool', definition: 'Batch text operations (dedup, case convert, etc.)', example: 'Text deduplication tool' },
  { l1: S, l2: 'Tools & Productivity (Static)', l3: 'Formula Calculator', definition: 'Deterministic computation without external data', example: 'BMI calculator' },
  { l1: S, l2: 'Data Analysis & Visualization (Static)', l3: 'Static Report Page', definition: 'Report with an explicit recurrence period (daily/weekly/monthly/quarterly/annual), a defined KPI dimension set, and a structured layout: report title, period range, summary metric cards, dimension breakdown tables, trend comparison charts (revised definition, A.7.4)', example: 'Quarterly KPI report' },
  { l1: S, l2: 'Data Analysis & Visualization (Static)', l3: 'Infographic / Data Story', definition: 'Narrative data visualization on specific topics', example: 'Industry trend analysis page' },
  { l1: S, l2: 'Data Analysis & Visualization (Static)', l3: 'Static Chart Page', definition: 'Pre-rendered charts (bar, line, pie, map)', example: 'Regional sales bar chart' },
  { l1: S, l2: 'Data Analysis & Visualization (Static)', l3: 'Fixed Dashboard / Display', definition: 'Multi-metric display for presentations', example: 'Annual conference data screen' },
  { l1: S, l2: 'Data Analysis & Visualization (Static)', l3: 'Static Comparison Page', definition: 'Read-only presentation of the results of a completed multi-object, multi-plan or multi-period comparison; data fixed at publication; cannot start new analyses or experiments (revised definition, A.7.4)', example: 'Plan effectiveness comparison' },
  { l1: S, l2: 'Data Analysis & Visualization (Static)', l3: 'Data Archive Page', definition: 'Historical report archive with navigation', example: 'Monthly report archive' },
  { l1: D, l2: 'Interactive Applications', l3: 'Form & Workflow', definition: 'Multi-step forms with validation and submission', example: 'Registration / application flow' },
  { l1: D, l2: 'Interactive Applications', l3: 'Content Interaction', definition: 'Content consumption with like, comment, bookmark', example: 'Expandable-comment article page' },
  { l1: D, l2: 'Interactive Applications', l3: 'Community & Social', definition: 'User-generated content, discussion, social features', example: 'Community discussion forum' },
  { l1: D, l2: 'Interactive Applications', l3: 'Real-time Communication', definition: 'WebSocket-based instant messaging and sync', example: 'Chat application' },
  { l1: D, l2: 'Management Systems', l3: 'Access & Account Mgmt', definition: 'User, role, permission, and org management', example: 'Enterprise permission backend' },
  { l1: D, l2: 'Management Systems', l3: 'Business Object Mgmt', definition: 'CRUD lifecycle for orders, products, customers', example: 'Order management system' },
  { l1: D, l2: 'Management Systems', l3: 'Workflow & Approval', definition: 'Approval nodes, flow control, status tracking', example: 'Expense approval system' },
  { l1: D, l2: 'Management Systems', l3: 'Configuration & Rules', definition: 'Visual business rule and parameter management', example: 'Business rule configuration' },
  { l1: D, l2: 'Management Systems', l3: 'Data & Resource Mgmt', definition: 'Metadata governance, data lineage, asset catalog', example: 'Data asset management platform' },
  { l1: D, l2: 'Tools & Productivity (Dynamic)', l3: 'Online File Processing', definition: 'Server-side file conversion, merge, compression', example: 'PDF merge tool' },
  { l1: D, l2: 'Tools & Productivity (Dynamic)', l3: 'Task & Efficiency Tool', definition: 'Time management, task tracking, habit building', example: 'Pomodoro timer' },
  { l1: D, l2: 'Tools & Productivity (Dynamic)', l3: 'Real-time Info Tool', definition: 'Live data query via external APIs', example: 'Real-time exchange rate tool' },
  { l1: D, l2: 'Multimedia & Creative', l3: 'Image Editing', definition: 'Crop, filter, text overlay, collage', example: 'Online photo editor' },
  { l1: D, l2: 'Multimedia & Creative', l3: 'Video Editing', definition: 'Cut, merge, transitions, subtitles', example: 'Online video editor' },
  { l1: D, l2: 'Multimedia & Creative', l3: 'Audio Processing', definition: 'Trim, denoise, speed change, format convert', example: 'Online audio editor' },
  { l1: D, l2: 'Multimedia & Creative', l3: 'Rich Text Editing', definition: 'Document editor with formatting and media', example: 'Online document editor' },
  { l1: D, l2: 'Multimedia & Creative', l3: 'Visual & Layout Design', definition: 'Poster, presentation, social media design', example: 'Online PPT designer' },
  { l1: D, l2: 'Data Analysis & Visualization (Dynamic)', l3: 'Interactive Dashboard', definition: 'Filterable, drillable analytics dashboard', example: 'Operations analytics dashboard' },
  { l1: D, l2: 'Data Analysis & Visualization (Dynamic)', l3: 'Real-time Monitor', definition: 'Live-updating monitoring with alerts', example: 'System status monitor screen' },
  { l1: D, l2: 'Data Analysis & Visualization (Dynamic)', l3: 'Self-service BI', definition: 'Drag-and-drop data exploration and charting', example: 'Self-service BI platform' },
  { l1: D, l2: 'Data Analysis & Visualization (Dynamic)', l3: 'Interactive Report', definition: 'Conditional query with pagination and export', example: 'Order query report' },
  { l1: D, l2: 'Data Analysis & Visualization (Dynamic)', l3: 'Experiment Analysis', definition: 'Live experimentation: A/B test results with statistical significance, starting or analysing experiments (not the static presentation of a finished comparison, A.7.4)', example: 'A/B experiment analysis page' },
  { l1: D, l2: 'Data Analysis & Visualization (Dynamic)', l3: 'Data-driven Simulation', definition: 'Business decision-support simulation for non-technical users (analysts, product managers, operations) who adjust business parameters (price, budget, inventory) to predict business outcomes (revenue, ROI, sales): business assumption → business outcome (revised definition, A.7.4)', example: 'Business parameter simulator' },
  { l1: D, l2: 'Graphics Development', l3: '2D Graphics', definition: 'Canvas/SVG drawing, algorithm visualization', example: 'Mermaid diagram / algo animation' },
  { l1: D, l2: 'Graphics Development', l3: '3D Graphics', definition: 'WebGL/Three.js scene rendering and interaction', example: '3D model viewer' },
  { l1: D, l2: 'Graphics Development', l3: 'Visual Effects', definition: 'Particle systems, shaders, dynamic animations', example: 'Particle system / shader effects' },
  { l1: D, l2: 'Graphics Development', l3: 'Interactive Graphics', definition: 'Zoomable, pannable data/spatial exploration', example: 'Draggable/rotatable graphic view' },
  { l1: D, l2: 'Browser Games', l3: 'Puzzle & Logic', definition: 'Pattern recognition, strategy, level progression', example: 'Sudoku, jigsaw, match-3' },
  { l1: D, l2: 'Browser Games', l3: 'Action & Reflex', definition: 'Fast reaction, hand-eye coordination', example: 'Dodge, shoot, click-reaction' },
  { l1: D, l2: 'Browser Games', l3: 'Strategy & Simulation', definition: 'Resource management, turn-based tactics', example: 'Turn-based / tower defense' },
  { l1: D, l2: 'Browser Games', l3: 'Educational', definition: 'Learning content embedded in game mechanics', example: 'Math / physics learning game' },
  { l1: D, l2: 'Simulation', l3: 'Physics Simulation', definition: 'Parameter-driven scientific process simulation', example: 'Mechanics / EM simulation' },
  { l1: D, l2: 'Simulation', l3: 'Numerical Simulation', definition: 'Scientific or engineering simulation for researchers, engineers and students: mathematical properties of complex systems — differential equations, Monte Carlo sampling, dynamical systems (revised definition, A.7.4)', example: 'Epidemic model / economic sim' },
  { l1: D, l2: 'Simulation', l3: 'Scenario Simulation', definition: 'Multi-agent interaction and strategy evolution', example: 'RL environment / multi-agent' },
];

/** The 11 functional domains (L2). */
export const DOMAINS: readonly string[] = [...new Set(LEAVES.map((l) => l.l2))];

/** Look up a leaf by its L3 name (exact, then case-insensitive). */
export function leafOf(l3: string): Leaf | undefined {
  return LEAVES.find((l) => l.l3 === l3) ?? LEAVES.find((l) => l.l3.toLowerCase() === l3.toLowerCase());
}

/** The L2 of a leaf and the L1 of that domain, derived from the tree (A.7: classify to a leaf, derive the rest). */
export function deriveLabels(l3: string): { l1: PageType; l2: string; l3: string } | null {
  const leaf = leafOf(l3);
  return leaf ? { l1: leaf.l1, l2: leaf.l2, l3: leaf.l3 } : null;
}

/** The three confusable leaf pairs whose definitions were sharpened (A.7.4). */
export const CONFUSABLE_PAIRS: readonly [string, string][] = [
  ['Static Report Page', 'Static Data Display'],
  ['Static Comparison Page', 'Experiment Analysis'],
  ['Data-driven Simulation', 'Numerical Simulation'],
];
