// Webhook endpoints and message batches of the messaging service.
package messaging
