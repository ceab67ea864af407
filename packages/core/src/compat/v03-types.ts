// v0.3 (and v0.2) JSON wire shapes: inline `kind` discriminators, lowercase states, nested push configs.

export type V03Role = 'user' | 'agent';
export type V03TaskState =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'completed'
  | 'canceled'
  | 'failed'
  | 'rejected'
  | 'auth-required'
  | 'unknown';

type Metadata = Record<string, unknown>;

export interface V03FileContent {
  name?: string;
  mimeType?: string;
  bytes?: string;
  uri?: string;
}

export type V03Part =
  | { kind: 'text'; text: string; metadata?: Metadata }
  | { kind: 'file'; file: V03FileContent; metadata?: Metadata }
  | { kind: 'data'; data: Record<string, unknown>; metadata?: Metadata };

export interface V03Message {
  kind: 'message';
  messageId: string;
  role: V03Role;
  parts: V03Part[];
  contextId?: string;
  taskId?: string;
  metadata?: Metadata;
  extensions?: string[];
  referenceTaskIds?: string[];
}

export interface V03TaskStatus {
  state: V03TaskState;
  message?: V03Message;
  timestamp?: string;
}

export interface V03Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: V03Part[];
  metadata?: Metadata;
  extensions?: string[];
}

export interface V03Task {
  kind: 'task';
  id: string;
  contextId: string;
  status: V03TaskStatus;
  artifacts?: V03Artifact[];
  history?: V03Message[];
  metadata?: Metadata;
}

export interface V03StatusUpdateEvent {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: V03TaskStatus;
  final: boolean;
  metadata?: Metadata;
}

export interface V03ArtifactUpdateEvent {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: V03Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: Metadata;
}

export type V03StreamResult = V03Task | V03Message | V03StatusUpdateEvent | V03ArtifactUpdateEvent;

export interface V03PushNotificationConfig {
  id?: string;
  url: string;
  token?: string;
  authentication?: { schemes: string[]; credentials?: string };
}

export interface V03TaskPushNotificationConfig {
  taskId: string;
  pushNotificationConfig: V03PushNotificationConfig;
}
