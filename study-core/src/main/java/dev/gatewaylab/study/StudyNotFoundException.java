package dev.gatewaylab.study;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

class StudyNotFoundException extends ErrorResponseException {

	StudyNotFoundException(long id) {
		super(HttpStatus.NOT_FOUND,
				ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "Study " + id + " not found"), null);
	}

}
