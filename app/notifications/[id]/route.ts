// GET /notifications/{id}: a notification's link; it is read from now, and the answer goes to its file.
import { openNotificationRequest } from '@/lib/web/notifications';

export const GET = async (req: Request, { params }: { params: Promise<{ id: string }> }) => openNotificationRequest(req, (await params).id);
