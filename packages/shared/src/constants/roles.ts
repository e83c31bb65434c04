// Roles and account statuses, as numbers on the wire.
export const ROLE = { guest: 0, user: 1, admin: 10, root: 100 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

export const USER_STATUS = { enabled: 1, banned: 2 } as const;

export const isAdmin = (role: number): boolean => role >= ROLE.admin;
export const isRoot = (role: number): boolean => role >= ROLE.root;

export const DEFAULT_GROUP = 'default';
