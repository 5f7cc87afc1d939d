// POST /confirm-email/submit: the "Confirm" button of a mailed link's page.
import { confirmEmailRequest } from '@/lib/web/email-confirmation';

export const POST = (req: Request) => confirmEmailRequest(req);
