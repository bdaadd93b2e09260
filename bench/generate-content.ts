/**
 * Writes a synthetic, valid content tree of any size, for benchmarks: realistic lesson Markdown (a few KB
 * each: prose with inline code and links, lists, fenced code blocks holding `#` comments, 2–8 steps),
 * courses of 10 classes of 10 lessons, some soon classes and courses, changelog entries and roadmap items.
 * Deterministic for a given seed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Options of {@link generateContent}. */
export interface GenerateOptions {
  /** Number of lessons to write (≥ 1). */
  lessons: number;
  /** Seed of the pseudo-random choices (default 1). */
  seed?: number;
  /** Lessons per class (default 10). */
  lessonsPerClass?: number;
  /** Classes per course, live ones (default 10). */
  classesPerCourse?: number;
  /** The `n`th lesson (1-based) when given; generated Markdown otherwise (`real-corpus.ts` passes real documents). */
  lesson?: (n: number) => LessonSource;
}

/** A lesson supplied to {@link generateContent}: its frontmatter values and its Markdown body. */
export interface LessonSource {
  /** One line of text (written as a JSON string, which YAML reads as the same string). */
  title: string;
  blurb: string;
  lang: string;
  /** The Markdown body: it must satisfy the lesson rules of docs/content.md (at least one step, no forbidden character). */
  body: string;
  /** Its number of level-2 headings. */
  steps: number;
}

/** What was written. */
export interface GeneratedContent {
  dir: string;
  lessons: number;
  courses: number;
  classes: number;
  files: number;
  /** Total size of the files written, in bytes. */
  bytes: number;
  /** Total steps over all lessons (what the loader must count). */
  steps: number;
}

const LANGS = ['python', 'sql', 'bash', 'typescript', 'go', 'rust'] as const;
const WORDS = (
  'value list loop function return index string number table query column row file path shell pipe type ' +
  'object array map filter reduce error branch commit test module import export variable scope closure'
).split(' ');

/**
 * Writes the tree into `dir` (created if missing; existing files with the same names are overwritten).
 * @returns counts of what was written, including the expected total of steps.
 */
export async function generateContent(dir: string, options: GenerateOptions): Promise<GeneratedContent> {
  const total = Math.max(1, Math.floor(options.lessons));
  const perClass = options.lessonsPerClass ?? 10;
  const perCourse = options.classesPerCourse ?? 10;
  const random = mulberry32(options.seed ?? 1);
  const files = new BatchWriter(dir);
  await mkdir(dir, { recursive: true });
  let steps = 0;
  let lessonNo = 0;
  let classes = 0;
  const courseIds: string[] = [];

  for (let c = 0; lessonNo < total; c++) {
    const courseId = `course-${c + 1}`;
    courseIds.push(courseId);
    const classIds: string[] = [];
    for (let k = 0; k < perCourse && lessonNo < total; k++) {
      const classId = `class-${k + 1}`;
      classIds.push(classId);
      classes++;
      const lessonIds: string[] = [];
      for (let l = 0; l < perClass && lessonNo < total; l++) {
        lessonNo++;
        const lessonId = `lesson-${lessonNo}`;
        lessonIds.push(lessonId);
        const path = `courses/${courseId}/${classId}/${lessonId}.md`;
        const source = options.lesson?.(lessonNo);
        if (source) {
          steps += source.steps;
          const keys = [`title: ${JSON.stringify(source.title)}`, `blurb: ${JSON.stringify(source.blurb)}`, `lang: ${source.lang}`];
          files.set(path, `${fm(keys)}\n${source.body}`);
        } else {
          const lang = LANGS[Math.floor(random() * LANGS.length)]!;
          const stepCount = 2 + Math.floor(random() * 7); // 2–8
          steps += stepCount;
          files.set(path, lessonMarkdown(lessonNo, lang, stepCount, random));
        }
      }
      files.set(
        `courses/${courseId}/${classId}/index.md`,
        fm([`name: ${title(random)} ${k + 1}`, 'status: live', `lessons: [${lessonIds.join(', ')}]`, `soon: ["${title(random)}"]`]),
      );
      await files.flush(); // one class at a time: memory stays flat at 50k lessons
    }
    // Every course also announces a soon class.
    classIds.push('coming-next');
    classes++;
    files.set(`courses/${courseId}/coming-next/index.md`, fm(['name: Coming next', 'status: soon', 'lessons: []', 'soon: [Projects, Review]']));
    files.set(
      `courses/${courseId}/index.md`,
      fm([
        `title: ${title(random)} course ${c + 1}`,
        `tagline: Learn ${WORDS[c % WORDS.length]} by doing`,
        `blurb: A synthetic course for load tests, number ${c + 1}.`,
        `color: "#${(0x100000 + ((c * 2654435761) % 0xefffff)).toString(16).slice(-6)}"`,
        'status: live',
        `classes: [${classIds.join(', ')}]`,
      ]),
    );
  }
  courseIds.push('future-course');
  files.set('courses/future-course/index.md', fm(['title: Future course', 'color: "#999999"', 'status: soon', 'classes: [intro]']));
  files.set('courses/future-course/intro/index.md', fm(['name: Intro', 'status: soon', 'lessons: []', 'soon: [Welcome]']));
  classes++;
  files.set('catalog.md', fm([`courses: [${courseIds.join(', ')}]`]));

  const kinds = ['course', 'class', 'lesson', 'feature'] as const;
  const entryIds: string[] = [];
  for (let i = 0; i < 24; i++) {
    const date = new Date(Date.UTC(2025, 0, 1 + i * 15)).toISOString().slice(0, 10);
    const id = `update-${i + 1}-${date}`;
    entryIds.push(id);
    files.set(
      `changelog/${id}.md`,
      fm([`kind: ${kinds[i % 4]}`, `title: Update ${i + 1}`, `blurb: ${sentence(random)}`]) + `\n${paragraph(random)}\n`,
    );
  }
  files.set(
    'roadmap/index.md',
    fm([
      'stages:',
      '  - { key: shipped, label: Shipped, note: Live now. }',
      '  - { key: building, label: Building, note: In progress. }',
      '  - { key: next, label: Next, note: Planned next. }',
      '  - { key: exploring, label: Exploring, note: Ideas we are testing. }',
    ]),
  );
  const stages = ['shipped', 'building', 'next', 'exploring'] as const;
  for (let i = 0; i < 12; i++) {
    const stage = stages[i % 4]!;
    const keys = [`title: Item ${i + 1}`, 'theme: Platform', `stage: ${stage}`, `order: ${i}`];
    if (stage === 'shipped') keys.push(`shipped: ${entryIds[i]}`);
    files.set(`roadmap/item-${i + 1}.md`, fm(keys) + `\n${paragraph(random)}\n`);
  }

  await files.flush();
  return { dir, lessons: lessonNo, courses: courseIds.length, classes, files: files.count, bytes: files.bytes, steps };
}

/** Writes queued files in parallel when flushed, creating their folders. */
class BatchWriter {
  count = 0;
  bytes = 0;
  private queue: [string, string][] = [];
  private readonly folders = new Set<string>();

  constructor(private readonly dir: string) {}

  set(rel: string, text: string): void {
    this.queue.push([rel, text]);
  }

  async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    for (const [rel] of batch) {
      const folder = rel.slice(0, rel.lastIndexOf('/'));
      if (folder !== '' && !this.folders.has(folder)) {
        await mkdir(join(this.dir, folder), { recursive: true });
        this.folders.add(folder);
      }
    }
    await Promise.all(
      batch.map(async ([rel, text]) => {
        this.count++;
        this.bytes += Buffer.byteLength(text);
        await writeFile(join(this.dir, rel), text);
      }),
    );
  }
}

function lessonMarkdown(n: number, lang: string, stepCount: number, random: () => number): string {
  const parts = [fm([`title: ${title(random)} ${n}`, `blurb: ${sentence(random)}`, `lang: ${lang}`]), ''];
  parts.push(`${paragraph(random)}`, '');
  for (let s = 1; s <= stepCount; s++) {
    parts.push(`## Step ${s}: ${title(random)}`, '', paragraph(random), '');
    if (random() < 0.6) {
      parts.push(`- Use \`${WORDS[s % WORDS.length]}\` to ${sentence(random).toLowerCase()}`);
      parts.push(`- Read [the guide](https://example.com/${lang}/${s}) for **details**`);
      parts.push(`- Try it ${s} times`, '');
    }
    parts.push(`\`\`\`${lang}`, ...codeLines(lang, s), '```', '');
    parts.push(paragraph(random), '');
  }
  return parts.join('\n');
}

function codeLines(lang: string, s: number): string[] {
  const comment = lang === 'python' || lang === 'bash' ? '##' : '//';
  return [
    `${comment} step ${s}: a comment that looks like a heading in some languages`,
    `value = compute(${s})`,
    `for item in items:`,
    `    print(item, value)`,
    `## not a step: inside a code block`,
  ];
}

function fm(lines: string[]): string {
  return `---\n${lines.join('\n')}\n---\n`;
}

function title(random: () => number): string {
  const w = WORDS[Math.floor(random() * WORDS.length)]!;
  return w.charAt(0).toUpperCase() + w.slice(1) + ' ' + WORDS[Math.floor(random() * WORDS.length)];
}

function sentence(random: () => number): string {
  const n = 6 + Math.floor(random() * 8);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}.`;
}

function paragraph(random: () => number): string {
  const sentences = Array.from({ length: 3 + Math.floor(random() * 3) }, () => sentence(random));
  sentences.push(`Call \`${WORDS[Math.floor(random() * WORDS.length)]}()\` and *check* the result.`);
  return sentences.join(' ');
}

/** A small, fast, seedable PRNG (public domain), so generated trees are reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
