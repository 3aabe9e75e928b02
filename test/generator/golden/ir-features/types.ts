export type Point = [number, number];

export type Command = [string, ...boolean[]];

export type Slug = string;

/** A closed object: unknown keys are rejected. */
export type Order = {
  id: number;
  slug?: Slug;
  amount: number;
  points: Point[];
  email?: string;
  placedAt: string;
  note: string | null;
  "with space"?: true;
};
