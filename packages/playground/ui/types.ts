// The v1.0 wire shapes the page works with (v0.3 answers are translated to them in v03.ts).

export interface Part {
  text?: string;
  raw?: string;
  url?: string;
  data?: unknown;
  filename?: string;
  mediaType?: string;
}

export interface Message {
  messageId: string;
  role: string;
  parts: Part[];
  contextId?: string;
  taskId?: string;
}

export interface TaskStatus {
  state: string;
  message?: Message;
  timestamp?: string;
}

export interface Artifact {
  artifactId: string;
  name?: string;
  parts: Part[];
}

export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts?: Artifact[];
  history?: Message[];
}

/** One answer or stream event: exactly one member set. */
export interface StreamResult {
  task?: Task;
  message?: Message;
  statusUpdate?: { taskId: string; contextId: string; status: TaskStatus };
  artifactUpdate?: { taskId: string; contextId: string; artifact: Artifact; append?: boolean; lastChunk?: boolean };
}

export interface ListTasksResult {
  tasks: Task[];
  nextPageToken?: string;
  totalSize?: number;
}

export const TERMINAL_STATES = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
